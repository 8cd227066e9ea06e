# expect: ok
# Asks the kernel to SIGKILL the checker on its behalf: makes the checker the owner of the inherited
# output pipe (fcntl F_SETOWN / F_SETOWN_EX, ioctl FIOSETOWN), with SIGKILL as the signal (F_SETSIG)
# and O_ASYNC, then writes; the checker's reading makes room in the pipe, and the kernel would send
# the signal. Returns what each step answered.
import ctypes
import fcntl
import os
import signal
import struct

F_SETSIG = 10
F_SETOWN_EX = 15
F_OWNER_PID = 1
FIOSETOWN = 0x8901


def answer(x):
    target = os.getppid()
    outcomes = {}
    for name, step in [
        ("F_SETOWN", lambda: fcntl.fcntl(1, fcntl.F_SETOWN, target)),
        ("F_SETOWN_EX", lambda: fcntl.fcntl(1, F_SETOWN_EX, struct.pack("ii", F_OWNER_PID, target))),
        ("FIOSETOWN", lambda: fcntl.ioctl(1, FIOSETOWN, struct.pack("i", target))),
        ("F_SETSIG", lambda: fcntl.fcntl(1, F_SETSIG, signal.SIGKILL)),
        ("O_ASYNC", lambda: fcntl.fcntl(1, fcntl.F_SETFL, fcntl.fcntl(1, fcntl.F_GETFL) | os.O_ASYNC)),
    ]:
        try:
            step()
            outcomes[name] = "done"
        except OSError as exc:
            outcomes[name] = type(exc).__name__
    for _ in range(200):
        os.write(1, b"x" * 512)
    ctypes.CDLL(None)  # nothing: just a moment for the checker to read
    return outcomes
