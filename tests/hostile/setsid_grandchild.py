# expect: ok
# Starts a process in its own session (escaping a process-group kill) that tries to outlive the
# check; returns its pid.
import os
import time


def answer(x):
    pid = os.fork()
    if pid == 0:
        os.setsid()
        while True:
            time.sleep(1)
    while os.getsid(pid) == os.getsid(0):  # wait until it has left our session
        time.sleep(0.001)
    return pid
