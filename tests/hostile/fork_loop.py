# expect: exception
# Children exit at once but are never waited for: the zombies count against RLIMIT_NPROC.
import os


def answer(x):
    for _ in range(10_000):
        if os.fork() == 0:
            os._exit(0)
    return "forked 10000 times"
