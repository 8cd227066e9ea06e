# expect: timeout
import os


def answer(x):
    while True:
        try:
            os.fork()
        except OSError:
            pass
