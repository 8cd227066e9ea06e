# expect: timeout
import time


def answer(x):
    time.sleep(3600)
