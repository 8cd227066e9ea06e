"""Clearing up after a sandboxed child: `kill_tree` leaves no process of the run able to run code.

The answer runs as the first process of a pid namespace of its own (isolation.py), so killing it makes
the kernel kill every process in that namespace, whatever their session or uid; `kill_tree` kills the
keeper's session, the keeper and the answer's process, then waits until the answer's process has exited,
by which time its namespace is empty. Where the kernel refused the namespace (the notes say so), it sweeps
instead: as root every process of the run's own uid, repeating until a pass finds nothing, so a
grandchild that called setsid cannot outlive the check (a pass reads /proc, ~1 ms for ~100 processes).
"""
from __future__ import annotations

import errno
import os
import select
import signal
import time


def _proc_pids() -> list[int]:
    return [int(name) for name in os.listdir("/proc") if name.isdigit()]


def _read_status(pid: int) -> bytes | None:
    try:
        fd = os.open(f"/proc/{pid}/status", os.O_RDONLY)
    except OSError:
        return None
    try:
        return os.read(fd, 4096)
    except OSError:
        return None
    finally:
        os.close(fd)


def _status_matches_uid(pid: int, uid_field: bytes) -> bool:
    """True when /proc/pid still runs code (not a zombie, not exiting) and its real uid is `uid`."""
    data = _read_status(pid)
    if data is None or uid_field not in data or b"\nVmSize:" not in data:  # no memory map: exiting, or a zombie
        return False
    state = data.find(b"\nState:\t")
    if state >= 0 and data[state + 8:state + 9] in (b"Z", b"X"):
        return False
    return not sigkill_pending(data)


def sigkill_pending(status: bytes) -> bool:
    """True when a /proc status text shows SIGKILL pending: that process will never run code again."""
    for key in (b"\nShdPnd:\t", b"\nSigPnd:\t"):
        at = status.find(key)
        if at >= 0:
            mask = status[at + len(key):status.find(b"\n", at + 1)]
            try:
                if int(mask, 16) & (1 << (signal.SIGKILL - 1)):
                    return True
            except ValueError:
                pass
    return False


def processes_of_uid(uid: int) -> list[int]:
    """Live (non-zombie) processes whose real uid is `uid`."""
    field = b"\nUid:\t%d\t" % uid
    return [pid for pid in _proc_pids() if _status_matches_uid(pid, field)]


def _sweep(find, budget_s: float = 2.0) -> bool:
    """SIGKILL whatever `find()` returns until it returns nothing; False if something survived."""
    deadline = time.monotonic() + budget_s
    while True:
        pids = find()
        if not pids:
            return True
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        if time.monotonic() > deadline:
            return False
        time.sleep(0.0005)


def _field(status: bytes, name: bytes) -> list[bytes]:
    for line in status.splitlines():
        if line.startswith(name + b":"):
            return line.split()[1:]
    return []


def is_answer_process(pid: int, keeper: int) -> bool:
    """True when `pid` is, right now, the first process of a pid namespace and a child of `keeper`."""
    status = _read_status(pid)
    if status is None:
        return False
    nspid, ppid = _field(status, b"NSpid"), _field(status, b"PPid")
    return len(nspid) >= 2 and nspid[-1] == b"1" and ppid == [str(keeper).encode()]


def answer_process_fd(pid: int, keeper: int) -> int | None:
    """A pidfd on the run's answer process `pid` (a child of `keeper`, the first process of its pid
    namespace), or None when `pid` is no such process. Looked at again once the pidfd is held, so a pid
    recycled in between is never mistaken for it."""
    if not is_answer_process(pid, keeper):
        return None
    try:
        fd = os.pidfd_open(pid)
    except OSError:
        return None
    if not is_answer_process(pid, keeper):
        os.close(fd)
        return None
    return fd


def await_exit(pidfd: int, budget_s: float = 2.0) -> bool:
    """Wait until the process of `pidfd` has exited; False if it had not within the budget."""
    return bool(select.select([pidfd], [], [], budget_s)[0])


def _kill_and_wait(pidfd: int, budget_s: float = 2.0) -> bool:
    """SIGKILL the process of `pidfd` and wait until it has exited; False if it had not within the budget."""
    try:
        signal.pidfd_send_signal(pidfd, signal.SIGKILL)
    except ProcessLookupError:
        pass
    except OSError as exc:
        if exc.errno != errno.ESRCH:
            raise
    return bool(select.select([pidfd], [], [], budget_s)[0])


def kill_tree(keeper: int, keeper_fd: int | None, answer_fd: int | None, uid: int | None,
              wait: bool = True) -> list[str]:
    """Kill the run: the keeper's session, the keeper and the answer's process. Returns notes on anything left.

    `answer_fd`: a pidfd on the answer's process, the first process of its own pid namespace. SIGKILL is
    sent to it at once, so it runs no more code, and once it has exited the kernel has killed every
    process in its namespace; with `wait`, that exit is awaited here (its teardown, unmapping what it
    inherited, takes a few milliseconds), else the caller awaits it later (`await_exit`). Without one (the
    namespace could not be made, or the answer's process died before it said where it was), as root every
    process of the run's `uid` is swept.
    """
    try:
        os.kill(-keeper, signal.SIGKILL)
    except OSError as exc:
        if exc.errno not in (errno.ESRCH, errno.EPERM):
            raise
    if keeper_fd is not None:
        try:
            signal.pidfd_send_signal(keeper_fd, signal.SIGKILL)
        except ProcessLookupError:
            pass
    notes = []
    if answer_fd is not None:
        if not _kill_and_wait(answer_fd, 2.0 if wait else 0.0) and wait:
            notes.append("the answer's process survived the kill")
    elif uid is not None and not _sweep(lambda: processes_of_uid(uid)):
        notes.append(f"processes of sandbox uid {uid} survived the kill")
    return notes


def _real_uid(pid: int) -> int | None:
    data = _read_status(pid)
    if data is None:
        return None
    at = data.find(b"\nUid:\t")
    return int(data[at + 6:data.index(b"\t", at + 6)]) if at >= 0 else None


def sweep_orphans(uid_base: int) -> int:
    """Kill processes left by sandboxed runs whose checker died mid-check (root only).

    A run's uid is `uid_base + its keeper's pid`; while that keeper exists with that uid (even as a
    zombie), the run belongs to a live checker and is left alone. Otherwise whatever still runs under
    the uid is an orphan (the chain of death signals from the checker to the zygote, the keeper and the
    answer's process should leave none; this is the net under it). Returns how many processes were killed.
    """
    killed = 0
    for pid in _proc_pids():
        uid = _real_uid(pid)
        if uid is None or not uid_base <= uid < uid_base + (1 << 22):
            continue
        if _real_uid(uid - uid_base) == uid:
            continue  # the run's keeper (maybe this very process) exists: a live checker owns it
        try:
            os.kill(pid, signal.SIGKILL)
            killed += 1
        except OSError:
            pass
    return killed
