# expect: ok
# Makes itself non-dumpable (so an ordinary-user parent may not inspect its namespaces), then starts
# a process in its own session that tries to outlive the check; returns its pid.
import ctypes
import os
import time

PR_SET_DUMPABLE = 4


def answer(x):
    ctypes.CDLL(None).prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)
    pid = os.fork()
    if pid == 0:
        os.setsid()
        while True:
            time.sleep(1)
    while os.getsid(pid) == os.getsid(0):  # wait until it has left our session
        time.sleep(0.001)
    return pid
