# expect: crash
import sys

sys.exit(3)


def answer(x):
    return x
