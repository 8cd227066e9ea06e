"""Confining a sandboxed child before any candidate code runs (`confine`).

The zygote forks the child (here, its "keeper"), which in this order: starts its own session; lays out its
request pipe, output and result pipe on fds 0-3 and closes everything else; moves to "/" with a scrubbed
environment; makes new mount, network and pid namespaces (as an ordinary user, inside a new user
namespace), with every mount read-only; and forks the answer's process, the first process of the new pid
namespace. The keeper then only waits for it and ends as it ended (`_keep`), so the zygote's reaping tells
the trusted process how the answer ended.

The answer's process sets rlimits (CPU, address space, FSIZE=0, NOFILE=4, CORE=0, NPROC, an 8 MiB stack);
as root drops to a dedicated unused uid/gid (`SANDBOX_UID_BASE + the keeper's pid`, so every process of
that uid belongs to this run and nothing else); sets no-new-privileges and death with its keeper; and loads
the seccomp filter (`seccomp.py`). Being its namespace's first process, it can name no process outside it,
and when it dies the kernel kills everything it started. Each step costs well under a millisecond; the
fork of the answer's process a few. Where the kernel refuses the namespaces, the keeper runs the answer
itself, and the notes say what that leaves open. What the trusted process does afterwards to clear up is
in `sweep.py`.
"""
from __future__ import annotations

import ctypes
import fcntl
import os
import resource
import signal

from checker.sandbox import seccomp

#: First uid of the range used for sandboxed runs (one uid per run: base + the keeper's pid).
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
#: The keeper's exit status when it could not follow the answer's process (never an answer's own).
KEEPER_LOST = 70

_libc = ctypes.CDLL(None, use_errno=True)


def sandbox_uid(keeper_pid: int) -> int:
    """The uid a run whose keeper has this pid gets when the trusted process is root."""
    return SANDBOX_UID_BASE + keeper_pid


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


def _read_proc(path: str) -> bytes:
    fd = os.open(path, os.O_RDONLY)
    try:
        return os.read(fd, 8192)
    finally:
        os.close(fd)


def _vm_bytes() -> int:
    """Address space the child maps right now (it inherited the zygote's, torch included)."""
    return int(_read_proc("/proc/self/statm").split()[0]) * resource.getpagesize()


def _status_field(status: bytes, name: bytes) -> list[bytes]:
    for line in status.splitlines():
        if line.startswith(name + b":"):
            return line.split()[1:]
    return []


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


def confine(fds: list[int], limits, zygote_pid: int) -> tuple[list[str], dict]:
    """Confine the freshly forked child; returns (notes, facts) for the hello frame, in the answer's process.

    `fds`: the child's ends of its result, output and request pipes. Where the namespaces can be made,
    this forks: the process that called it becomes the keeper and never returns (`_keep`), the answer's
    process returns. `facts["answer_pid"]` is the answer's process's pid as the trusted process sees it,
    `facts["pid_ns"]` whether it is the first process of a pid namespace of its own.

    Runs before any candidate code, so what it reports can be trusted by the parent. Raises on a
    failure that would leave the child unconfined; the caller turns that into a crash report.
    """
    notes: list[str] = []
    facts: dict = {}
    os.setsid()
    result_w, output_w, request_r = fds
    # Move the pipes out of the way, then lay out fds 0-3 and close everything else inherited.
    res = fcntl.fcntl(result_w, fcntl.F_DUPFD, 10)
    out = fcntl.fcntl(output_w, fcntl.F_DUPFD, 10)
    stdin = fcntl.fcntl(request_r, fcntl.F_DUPFD, 10)
    os.dup2(stdin, 0)
    os.dup2(out, 1)
    os.dup2(out, 2)
    os.dup2(res, RESULT_FD)
    os.closerange(RESULT_FD + 1, 1 << 20)
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT, signal.SIGCHLD, signal.SIGTSTP,
                signal.SIGUSR1, signal.SIGUSR2):
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
    keeper = os.getpid()
    uid = sandbox_uid(keeper) if root else None
    err = _unshare(CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWPID | (0 if root else CLONE_NEWUSER))
    if err == 0:
        _read_only_filesystem(notes)
        answer = os.fork()
        if answer:
            _keep(answer, uid, zygote_pid)  # never returns
        parent = keeper
    else:
        parent = zygote_pid
        if root:
            notes.append(f"network isolation unavailable: unshare failed ({os.strerror(err)}); the answer "
                         "runs in the checker's pid namespace")
        else:
            notes.append("network isolation unavailable: not root and user namespaces disabled "
                         f"({os.strerror(err)}); a process the answer starts with setsid may outlive "
                         "the check, and the answer runs with your user's file permissions")

    if uid is not None:
        os.setgroups([])
        os.setresgid(uid, uid, uid)
        os.setresuid(uid, uid, uid)
        facts["uid"] = uid
    _prctl(PR_SET_NO_NEW_PRIVS, 1)
    # The death signal is cleared by a credential change, so it is set after the uid drop.
    _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    status = _read_proc("/proc/self/status")  # the proc mount is the checker's: pids as it sees them
    ppid, nspid = _status_field(status, b"PPid"), _status_field(status, b"NSpid")
    if not ppid or int(ppid[0]) != parent:
        os._exit(KEEPER_LOST)  # the keeper (or the zygote) died before the death signal was set
    facts["answer_pid"] = int(nspid[0]) if nspid else os.getpid()
    facts["pid_ns"] = err == 0
    # Limits last but for the filter: lowering them needs no privilege, and reading /proc needs a descriptor.
    mem = _vm_bytes() + limits.memory_mb * 1024 * 1024
    stack_soft = resource.getrlimit(resource.RLIMIT_STACK)[0]
    stack = STACK_BYTES if stack_soft == resource.RLIM_INFINITY else min(stack_soft, STACK_BYTES)
    cpu = max(1, int(limits.cpu_s))
    for rlim, value in ((resource.RLIMIT_CORE, 0), (resource.RLIMIT_FSIZE, 0), (resource.RLIMIT_STACK, stack),
                        (resource.RLIMIT_AS, mem), (resource.RLIMIT_NOFILE, RESULT_FD + 1),
                        (resource.RLIMIT_NPROC, limits.max_processes),
                        (resource.RLIMIT_CPU, cpu)):  # CPU: SIGKILL at the limit; SIGXCPU can be ignored
        resource.setrlimit(rlim, (value, value))
    note = seccomp.install(_libc, os.getpid())  # last: it refuses unshare, mount and signalling
    if note:
        notes.append(note)
    return notes, facts


def _keep(answer: int, uid: int | None, zygote_pid: int) -> None:
    """The keeper: hand the answer's process every descriptor, wait for it, and end as it ended (its exit
    status, or the signal that killed it), so that the zygote's reaping of this process reports the
    answer's ending and CPU time. Dies with the zygote, and the answer's process dies with it. Never runs
    candidate code; as root it drops to the run's uid too. Never returns."""
    try:
        os.closerange(0, RESULT_FD + 1)
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        if uid is not None:
            os.setgroups([])
            os.setresgid(uid, uid, uid)
            os.setresuid(uid, uid, uid)
        _prctl(PR_SET_NO_NEW_PRIVS, 1)
        _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        if os.getppid() != zygote_pid:
            os.kill(answer, signal.SIGKILL)
            os._exit(KEEPER_LOST)
        while True:
            try:
                _, status = os.waitpid(answer, 0)
                break
            except InterruptedError:
                continue
        if os.WIFSIGNALED(status):
            sig = os.WTERMSIG(status)
            if sig not in (signal.SIGKILL, signal.SIGSTOP):
                signal.signal(sig, signal.SIG_DFL)
            signal.pthread_sigmask(signal.SIG_UNBLOCK, [sig])
            os.kill(os.getpid(), sig)
        os._exit(os.WEXITSTATUS(status) if os.WIFEXITED(status) else KEEPER_LOST)
    finally:
        os._exit(KEEPER_LOST)
