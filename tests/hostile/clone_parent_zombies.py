# expect: ok
# Starts processes with CLONE_PARENT, so that they are the checker's children rather than its own,
# and lets them exit at once: unreaped, each would stay a zombie of the checker. Returns how many it
# started.
import ctypes
import os

CLONE_PARENT, SIGCHLD = 0x8000, 17


def answer(x):
    libc = ctypes.CDLL(None, use_errno=True)
    started = 0
    for _ in range(4):
        pid = libc.syscall(56, ctypes.c_ulong(CLONE_PARENT | SIGCHLD), None, None, None, None)
        if pid == 0:
            os._exit(0)
        started += pid > 0
    return started
