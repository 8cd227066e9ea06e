# expect: timeout
# Ignores SIGXCPU so only the hard CPU limit (SIGKILL) or the wall clock can stop it.
import signal

signal.signal(signal.SIGXCPU, signal.SIG_IGN)


def answer(x):
    n = 0
    while True:
        n += 1
