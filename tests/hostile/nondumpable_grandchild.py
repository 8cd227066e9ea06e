# expect: ok
# Makes itself non-dumpable (so an ordinary-user parent may not inspect its namespaces), then starts
# a process in its own session that tries to outlive the check, named `x`; returns its pid.
import ctypes
import os
import time

PR_SET_DUMPABLE = 4
PR_SET_NAME = 15


def answer(x):
    ctypes.CDLL(None).prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)
    name = (x if isinstance(x, str) else "ppo-escapee").encode()
    pid = os.fork()
    if pid == 0:
        os.setsid()
        ctypes.CDLL(None).prctl(PR_SET_NAME, ctypes.c_char_p(name), 0, 0, 0)
        while True:
            time.sleep(1)
    while os.getsid(pid) == os.getsid(0):  # wait until it has left our session
        time.sleep(0.001)
    return pid
