"""Clearing up after a sandboxed child: `kill_tree` leaves no process of the run able to run code.

SIGKILL the child's session; then (root) every process of the run's uid, or (ordinary user) the pid
namespace's keeper, whose death makes the kernel kill every process in that namespace, and whatever
is left in the child's user namespace. Sweeps repeat until a pass finds nothing, so a grandchild
that called setsid cannot outlive the check. A pass reads /proc (~1 ms for ~100 processes).
"""
from __future__ import annotations

import errno
import os
import select
import signal
import time


def _proc_pids() -> list[int]:
    return [int(name) for name in os.listdir("/proc") if name.isdigit()]


def _status_matches_uid(pid: int, uid_field: bytes) -> bool:
    """True when /proc/pid still runs code (not a zombie, not exiting) and its real uid is `uid`."""
    try:
        fd = os.open(f"/proc/{pid}/status", os.O_RDONLY)
    except OSError:
        return False
    try:
        data = os.read(fd, 4096)
    except OSError:
        return False
    finally:
        os.close(fd)
    if uid_field not in data or b"\nVmSize:" not in data:  # no memory map: exiting, or a zombie
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


def _in_user_ns(pid: int, ns: str) -> bool:
    """True when `pid` still runs code (not a zombie, not exiting) in the user namespace `ns`."""
    try:
        if os.readlink(f"/proc/{pid}/ns/user") != ns:
            return False
        fd = os.open(f"/proc/{pid}/stat", os.O_RDONLY)
        try:
            stat = os.read(fd, 1024)
        finally:
            os.close(fd)
    except OSError:
        return False
    fields = stat[stat.rfind(b")") + 2:].split()
    # A zombie, or a process already exiting (its memory map, vsize, is gone): nothing runs there.
    return len(fields) > 20 and fields[0] not in (b"Z", b"X") and fields[20] != b"0"


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


def is_pid_ns_init(pid: int, uid: int) -> bool:
    """True when `pid` is, right now, the first process of a pid namespace, owned by `uid`."""
    try:
        with open(f"/proc/{pid}/status", "rb") as f:
            status = f.read()
    except OSError:
        return False
    return b"\nUid:\t%d\t" % uid in status and any(
        line.startswith(b"NSpid:") and line.split()[-1] == b"1" and len(line.split()) >= 3
        for line in status.splitlines())


def _kill_keeper(init_fd: int, init_pid: int | None, budget_s: float = 2.0) -> None:
    """SIGKILL the pid namespace's keeper and wait until it is exiting.

    An exiting namespace init SIGKILLs every process in its namespace before anything else, then
    waits for them to be reaped, which for orphans is up to the system's init and can take a
    while; so this waits only for the keeper's exit to begin (its memory map is gone), not end.
    """
    try:
        signal.pidfd_send_signal(init_fd, signal.SIGKILL)
    except ProcessLookupError:
        return
    deadline = time.monotonic() + budget_s
    while time.monotonic() < deadline:
        if select.select([init_fd], [], [], 0)[0]:
            return  # exited (the pid may be recycled from now on, so look no further)
        try:
            with open(f"/proc/{init_pid}/status", "rb") as f:
                if b"\nVmSize:" not in f.read():
                    return
        except OSError:
            return
        time.sleep(0.0002)


def kill_tree(pid: int, uid: int | None, user_ns: str | None, init_fd: int | None = None,
              init_pid: int | None = None) -> list[str]:
    """Kill the child, its session and every process it started. Returns notes on anything left.

    `init_fd` is a pidfd on the child's pid-namespace keeper (ordinary-user path): killing it makes
    the kernel kill every process in the namespace, and its exit is awaited so that none is left.
    """
    for target in (-pid, pid):
        try:
            os.kill(target, signal.SIGKILL)
        except OSError as exc:
            if exc.errno not in (errno.ESRCH, errno.EPERM):
                raise
    if init_fd is not None:
        _kill_keeper(init_fd, init_pid)
    # The child itself is not waited for: once kill() has returned, a pending SIGKILL makes any
    # fork it attempts fail, so only processes that exist now can be left, and the sweep gets them.
    # The caller reaps the child later (its pid, and so its uid, stays reserved until then).
    notes = []
    if uid is not None and not _sweep(lambda: [p for p in processes_of_uid(uid) if p != pid]):
        notes.append(f"processes of sandbox uid {uid} survived the kill")
    if user_ns is not None and not _sweep(
            lambda: [p for p in _proc_pids() if p != pid and _in_user_ns(p, user_ns)]):
        notes.append("processes in the sandbox user namespace survived the kill")
    return notes


def _real_uid(pid: int) -> int | None:
    try:
        fd = os.open(f"/proc/{pid}/status", os.O_RDONLY)
    except OSError:
        return None
    try:
        data = os.read(fd, 4096)
    except OSError:
        return None
    finally:
        os.close(fd)
    at = data.find(b"\nUid:\t")
    return int(data[at + 6:data.index(b"\t", at + 6)]) if at >= 0 else None


def sweep_orphans(uid_base: int) -> int:
    """Kill processes left by sandboxed runs whose checker died mid-check (root only).

    A run's uid is `uid_base + the child's pid`; while that child exists with that uid (even as a
    zombie), the run belongs to a live checker and is left alone. Otherwise whatever still runs
    under the uid is an orphan, since only the dead checker would have swept it. Returns how many
    processes were killed.
    """
    killed = 0
    for pid in _proc_pids():
        uid = _real_uid(pid)
        if uid is None or not uid_base <= uid < uid_base + (1 << 22):
            continue
        if _real_uid(uid - uid_base) == uid:
            continue  # the run's child (maybe this very process) exists: a live checker owns it
        try:
            os.kill(pid, signal.SIGKILL)
            killed += 1
        except OSError:
            pass
    return killed
