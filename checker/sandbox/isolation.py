"""Confining the forked child before any candidate code runs (`isolate_child`).

In this order: own session; request pipe (or /dev/null)/stdout/stderr/result pipe on fds 0-3 and every other inherited
fd closed; cwd "/" and a scrubbed environment; new mount and network namespaces with every mount
read-only (as an ordinary user, where the kernel allows it, also user and pid namespaces, with a
`sleep` as the pid namespace's first process: its "keeper"); rlimits (CPU, address space, FSIZE=0,
NOFILE=4, CORE=0, NPROC, an 8 MiB stack); as root a drop to a dedicated unused uid/gid (`SANDBOX_UID_BASE + pid`,
so every process of that uid belongs to this run and nothing else); no-new-privileges; death with
the parent; a seccomp filter (`seccomp.py`). Each step costs well under a millisecond. What the
parent does afterwards to clear up is in `sweep.py`.
"""
from __future__ import annotations

import ctypes
import fcntl
import math
import os
import resource
import signal

from checker.sandbox import seccomp

#: First uid of the range used for sandboxed runs (one uid per run: base + the child's pid).
SANDBOX_UID_BASE = 1_500_000_000

CLONE_NEWNS = 0x00020000
CLONE_NEWUSER = 0x10000000
CLONE_NEWPID = 0x20000000
CLONE_NEWNET = 0x40000000
PR_SET_PDEATHSIG = 1
PR_SET_NO_NEW_PRIVS = 38

RESULT_FD = 3
#: The C stack the child may grow to (the usual default). Recursion deep enough to overflow it (in C,
#: past a raised recursion limit) ends in SIGSEGV after the same depth whatever the user's
#: `ulimit -s`, instead of growing an unlimited stack into the address-space limit.
STACK_BYTES = 8 * 1024 * 1024
_KEEP_ENV = ("PATH", "LANG", "LC_ALL", "LC_CTYPE", "TZ")

_libc = ctypes.CDLL(None, use_errno=True)


def sandbox_uid(child_pid: int) -> int:
    """The uid a root parent gives the child with this pid."""
    return SANDBOX_UID_BASE + child_pid


def _unshare(flags: int) -> int:
    """unshare(2); returns 0 or the errno."""
    if _libc.unshare(ctypes.c_int(flags)) == 0:
        return 0
    return ctypes.get_errno()


def _prctl(option: int, arg: int) -> int:
    if _libc.prctl(ctypes.c_int(option), ctypes.c_ulong(arg), ctypes.c_ulong(0), ctypes.c_ulong(0),
                   ctypes.c_ulong(0)) == 0:
        return 0
    return ctypes.get_errno()


def _vm_bytes() -> int:
    """Address space the child maps right now (it inherited the parent's, torch included)."""
    fd = os.open("/proc/self/statm", os.O_RDONLY)
    try:
        return int(os.read(fd, 256).split()[0]) * resource.getpagesize()
    finally:
        os.close(fd)


class _MountAttr(ctypes.Structure):
    _fields_ = [("attr_set", ctypes.c_uint64), ("attr_clr", ctypes.c_uint64),
                ("propagation", ctypes.c_uint64), ("userns_fd", ctypes.c_uint64)]


_SYS_MOUNT_SETATTR = 442  # the same number on every architecture (added in Linux 5.12)
_AT_FDCWD = -100
_AT_RECURSIVE = 0x8000
_MOUNT_ATTR_RDONLY = 0x1
_MS_PRIVATE = 1 << 18


def _read_only_filesystem(notes: list[str]) -> None:
    """In the child's own mount namespace, make every mount read-only (about 0.02 ms).

    As an ordinary user this is what stops an answer deleting or renaming the user's files (calls
    that need no descriptor, so RLIMIT_NOFILE does not stop them); as root it backs up the uid drop.
    Private propagation first, so nothing done here can reach the parent's mounts.
    """
    attr = _MountAttr(_MOUNT_ATTR_RDONLY, 0, _MS_PRIVATE, 0)
    if _libc.syscall(_SYS_MOUNT_SETATTR, _AT_FDCWD, b"/", _AT_RECURSIVE, ctypes.byref(attr),
                     ctypes.sizeof(attr)) != 0:
        err = ctypes.get_errno()
        notes.append(f"the file system could not be made read-only ({os.strerror(err)}); "
                     + ("the uid drop still protects your files" if os.geteuid() == 0 else
                        "the answer could delete or rename files your user owns"))


def _spawn_pid_ns_init(limits, keeper_s: float) -> int | None:
    """Start the first process of the new pid namespace: a `sleep` that holds no descriptors.

    Every process the answer starts lands in that namespace, and when its first process dies the
    kernel kills them all, whatever their session, uid namespace or dumpable flag. So the parent can
    end the whole tree with one kill, and if the answer kills the keeper, it can start nothing more.
    posix_spawn (vfork + exec) costs about a millisecond, far less than a fork of this process.
    """
    try:  # it outlives the run, so that a checker that dies mid-check still ends the namespace soon
        return os.posix_spawn("/bin/sleep", ["sleep", str(int(limits.wall_s + keeper_s))], {},
                              file_actions=[(os.POSIX_SPAWN_CLOSE, fd) for fd in (1, 2, RESULT_FD)])
    except OSError:
        return None


def settle_cpu_limit(limits) -> None:
    """Lower the CPU limit to `limits.cpu_s` on top of the CPU time this process has used so far (rounded
    up to a whole second, the limit's unit), so that what it did before the run (a rehearsal, within
    the `cpu_extra_s` that `isolate_child` allowed) does not count against the answer. Lowering needs no
    privilege: the answer cannot raise it again."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    cpu = max(1, int(limits.cpu_s)) + math.ceil(usage.ru_utime + usage.ru_stime)
    _, hard = resource.getrlimit(resource.RLIMIT_CPU)
    if hard != resource.RLIM_INFINITY:
        cpu = min(cpu, hard)
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu))


def isolate_child(result_w: int, output_w: int, parent_pid: int, limits, request_r: int | None = None,
                  keeper_s: float = 30.0, cpu_extra_s: int = 0) -> tuple[list[str], dict]:
    """Confine the current (freshly forked) process. Returns (notes, facts) for the hello frame.

    `request_r` becomes stdin (fd 0): the pipe the parent sends the source on (else /dev/null).
    `keeper_s`: how much longer than `limits.wall_s` the pid namespace's keeper lives (a child forked
    ahead of time waits for its source first). `cpu_extra_s`: CPU seconds allowed on top of
    `limits.cpu_s` for what the child does before its run (a rehearsal), taken back by
    `settle_cpu_limit` once the run is about to start.

    Runs before any candidate code, so what it reports can be trusted by the parent. Raises on a
    failure that would leave the child unconfined; the caller turns that into a crash report.
    """
    notes: list[str] = []
    facts: dict = {}
    os.setsid()
    # Move the two pipes out of the way, then lay out fds 0-3 and close everything else inherited.
    res = fcntl.fcntl(result_w, fcntl.F_DUPFD, 10)
    out = fcntl.fcntl(output_w, fcntl.F_DUPFD, 10)
    stdin = (fcntl.fcntl(request_r, fcntl.F_DUPFD, 10) if request_r is not None
             else os.open("/dev/null", os.O_RDONLY))
    os.dup2(stdin, 0)
    os.dup2(out, 1)
    os.dup2(out, 2)
    os.dup2(res, RESULT_FD)
    os.closerange(RESULT_FD + 1, 1 << 20)
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT, signal.SIGCHLD):
        signal.signal(sig, signal.SIG_DFL)
    try:
        signal.set_wakeup_fd(-1)
    except (ValueError, OSError):
        pass
    os.chdir("/")
    keep = {k: os.environ[k] for k in _KEEP_ENV if k in os.environ}
    os.environ.clear()
    os.environ.update(keep)
    os.environ["HOME"] = "/nonexistent"

    root = os.geteuid() == 0
    # As root the uid drop already marks every process of the run, so no pid namespace: a process
    # that unshared one can no longer start threads (clone(CLONE_THREAD) fails with EINVAL).
    namespaces = CLONE_NEWNS | CLONE_NEWNET | (0 if root else CLONE_NEWUSER | CLONE_NEWPID)
    err = _unshare(namespaces)
    if err == 0:
        _read_only_filesystem(notes)
        if not root:
            facts["user_ns"] = os.readlink("/proc/self/ns/user")
            init = _spawn_pid_ns_init(limits, keeper_s)
            if init:
                facts["pid_ns_init"] = init
            else:
                notes.append("could not start the sandbox's pid-namespace keeper (/bin/sleep); "
                             "processes the answer starts are found by user namespace only")
    elif root:
        notes.append(f"network isolation unavailable: unshare failed ({os.strerror(err)})")
    else:
        notes.append("network isolation unavailable: not root and user namespaces disabled "
                     f"({os.strerror(err)}); a process the answer starts with setsid may outlive "
                     "the check, and the answer runs with your user's file permissions")

    vm = _vm_bytes()
    mem = vm + limits.memory_mb * 1024 * 1024
    stack_soft = resource.getrlimit(resource.RLIMIT_STACK)[0]
    stack = STACK_BYTES if stack_soft == resource.RLIM_INFINITY else min(stack_soft, STACK_BYTES)
    for rlim, value in ((resource.RLIMIT_CORE, 0), (resource.RLIMIT_FSIZE, 0), (resource.RLIMIT_STACK, stack),
                        (resource.RLIMIT_AS, mem), (resource.RLIMIT_NOFILE, RESULT_FD + 1),
                        (resource.RLIMIT_NPROC, limits.max_processes)):
        resource.setrlimit(rlim, (value, value))
    cpu = max(1, int(limits.cpu_s)) + max(0, int(cpu_extra_s))
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu))  # SIGKILL at the limit; SIGXCPU can be ignored

    if root:
        uid = sandbox_uid(os.getpid())
        os.setgroups([])
        os.setresgid(uid, uid, uid)
        os.setresuid(uid, uid, uid)
        facts["uid"] = uid
    _prctl(PR_SET_NO_NEW_PRIVS, 1)
    # The death signal is cleared by a credential change, so it is set after the uid drop.
    _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent_pid:
        os._exit(70)
    note = seccomp.install(_libc)  # last: it refuses unshare, mount and prctl-free signalling
    if note:
        notes.append(note)
    return notes, facts
