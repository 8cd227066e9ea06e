# expect: ok
# Makes new namespaces with a raw clone() (the filter must read clone's flags, not only unshare's),
# and with clone3. Returns, for each attempt, whether a process was created and the errno.
import ctypes
import os

CLONE_NEWNS, CLONE_NEWUTS, CLONE_NEWUSER, CLONE_NEWNET = 0x20000, 0x04000000, 0x10000000, 0x40000000
SIGCHLD = 17


def answer(x):
    libc = ctypes.CDLL(None, use_errno=True)
    outcomes = []
    for flags in (CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWUTS, CLONE_NEWUSER, CLONE_NEWNET):
        pid = libc.syscall(56, ctypes.c_ulong(flags | SIGCHLD), None, None, None, None)
        if pid == 0:
            os._exit(0)
        outcomes.append(["created" if pid > 0 else "refused", ctypes.get_errno()])
        if pid > 0:
            os.waitpid(pid, 0)
    args = (ctypes.c_uint64 * 11)(CLONE_NEWUSER | CLONE_NEWNET, 0, 0, 0, SIGCHLD, 0, 0, 0, 0, 0, 0)
    pid = libc.syscall(435, args, ctypes.c_size_t(88))
    if pid == 0:
        os._exit(0)
    outcomes.append(["created" if pid > 0 else "refused", ctypes.get_errno()])
    return outcomes
