# expect: ok
# Starts a process in its own session (escaping a process-group kill) that tries to outlive the
# check, named `x` (its process name, so the test can look for it); returns its pid.
import ctypes
import os
import time

PR_SET_NAME = 15


def answer(x):
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
