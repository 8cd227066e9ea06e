# expect: ok
# Tries to reach processes outside its own: sets RLIMIT_CPU=1 and RLIMIT_NPROC=0 on the pids it is
# given (the checker, a shell of the same user) and on every small pid, renices every process of its
# user and its process group, changes their I/O priority, scheduler and CPU affinity, and clears its own
# death signal so that it outlives its keeper. Returns what each attempt gave.
import ctypes
import os
import resource

IOPRIO_WHO_PROCESS, IOPRIO_WHO_PGRP, IOPRIO_WHO_USER = 1, 2, 3
SYS_IOPRIO_SET, SYS_KCMP, SYS_PIDFD_OPEN = 251, 312, 434
PR_SET_PDEATHSIG = 1


def _try(fn):
    try:
        fn()
        return "done"
    except OSError as exc:
        return type(exc).__name__


def _raw(nr, *args):
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.syscall(nr, *[ctypes.c_long(a) for a in args]) == -1:
        return os.strerror(ctypes.get_errno())
    return "done"


def answer(x):
    pids = [int(p) for p in x] if isinstance(x, (list, tuple)) else []
    out = {}
    for pid in pids + list(range(2, 400)):
        for rlim, value in ((resource.RLIMIT_CPU, (1, 1)), (resource.RLIMIT_NPROC, (0, 0))):
            got = _try(lambda: resource.prlimit(pid, rlim, value))
            if got == "done":
                out.setdefault("prlimit", []).append(pid)
        if _try(lambda: os.sched_setaffinity(pid, {0})) == "done":
            out.setdefault("affinity", []).append(pid)
        if _try(lambda: os.sched_setscheduler(pid, os.SCHED_IDLE, os.sched_param(0))) == "done":
            out.setdefault("scheduler", []).append(pid)
        if pid in pids:
            out.setdefault("ioprio_pid", []).append(_raw(SYS_IOPRIO_SET, IOPRIO_WHO_PROCESS, pid, (3 << 13) | 7))
            out.setdefault("kcmp", []).append(_raw(SYS_KCMP, os.getpid(), pid, 0, 0, 0))
            out.setdefault("pidfd_open", []).append(_raw(SYS_PIDFD_OPEN, pid, 0))
    out["renice_user"] = _try(lambda: os.setpriority(os.PRIO_USER, 0, 19))
    out["renice_group"] = _try(lambda: os.setpriority(os.PRIO_PGRP, 0, 19))
    out["ioprio_user"] = _raw(SYS_IOPRIO_SET, IOPRIO_WHO_USER, 0, (3 << 13) | 7)
    out["ioprio_group"] = _raw(SYS_IOPRIO_SET, IOPRIO_WHO_PGRP, 0, (3 << 13) | 7)
    out["no_death_signal"] = _raw(157, PR_SET_PDEATHSIG, 0, 0, 0, 0)
    # what stays allowed: the answer's own process
    out["own_prlimit"] = _try(lambda: resource.prlimit(0, resource.RLIMIT_CORE, (0, 0)))
    out["own_renice"] = _try(lambda: os.setpriority(os.PRIO_PROCESS, 0, 5))
    out["own_affinity"] = _try(lambda: os.sched_setaffinity(0, os.sched_getaffinity(0)))
    return out
