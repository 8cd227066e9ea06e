# expect: exception
import os
import signal


def answer(x):
    os.kill(os.getppid(), signal.SIGKILL)
    return "parent killed"
