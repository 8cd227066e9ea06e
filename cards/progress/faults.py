"""Telling the ways a progress file can fail apart: `describe_fault(path, exc, doing)`.

"Damaged, move it aside, restore a backup" is the right advice only for a damaged file. The same
SQLite errors ("unable to open database file", "attempt to write a readonly database", "disk I/O
error") also come from a folder the user may not write to, a read-only file system (a read-only
bind mount, a snapshot) and a full disk, where the file is intact and that advice would make a user
abandon it. So the folder is probed (its mount flags, then a small file created, written and
removed) and the error's own code is read, and each cause gets its own advice.
"""
from __future__ import annotations

import errno
import os
from pathlib import Path

_SQLITE_PERM, _SQLITE_READONLY, _SQLITE_IOERR, _SQLITE_CORRUPT = 3, 8, 10, 11
_SQLITE_FULL, _SQLITE_CANTOPEN, _SQLITE_NOTADB = 13, 14, 26
_SQLITE_BUSY, _SQLITE_LOCKED = 5, 6
DAMAGE_CODES = (_SQLITE_CORRUPT, _SQLITE_NOTADB)

FULL = "full"
READ_ONLY = "read-only"
PERMISSION = "permission"


def _errno_kind(code: int | None) -> str | None:
    if code in (errno.ENOSPC, errno.EDQUOT):
        return FULL
    if code == errno.EROFS:
        return READ_ONLY
    if code in (errno.EACCES, errno.EPERM):
        return PERMISSION
    return None


def probe(folder: Path, files: tuple[Path, ...] = ()) -> str | None:
    """Why `folder` (and `files` in it) cannot be written, or None when they can (leaves nothing behind)."""
    try:
        if os.statvfs(folder).f_flag & os.ST_RDONLY:
            return READ_ONLY
    except OSError as exc:
        return _errno_kind(exc.errno)
    for path in files:
        if path.exists():
            try:
                os.close(os.open(path, os.O_RDWR))  # opening changes nothing, not even the mtime
            except OSError as exc:
                kind = _errno_kind(exc.errno)
                if kind:
                    return kind
    test = folder / f".ppo-drill-write-test-{os.getpid()}"
    try:
        fd = os.open(test, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return None
    except OSError as exc:
        return _errno_kind(exc.errno)
    try:
        os.write(fd, b"\0" * 65536)  # a full disk often still has room for an empty file
        os.fsync(fd)
    except OSError as exc:
        return _errno_kind(exc.errno)
    finally:
        os.close(fd)
        try:
            os.unlink(test)
        except OSError:
            pass
    return None


def kind_of(path: Path, exc: BaseException) -> str | None:
    """FULL, READ_ONLY, PERMISSION, "damaged", "busy" or None (unknown) for an error on `path`."""
    if isinstance(exc, OSError):
        kind = _errno_kind(exc.errno)
        if kind:
            return kind
    code = getattr(exc, "sqlite_errorcode", None)
    code = code & 0xFF if isinstance(code, int) else None
    if code in (_SQLITE_BUSY, _SQLITE_LOCKED):
        return "busy"
    if code == _SQLITE_FULL:
        return FULL
    if code in DAMAGE_CODES:
        return "damaged"
    folder = path.parent
    found = probe(folder, (path, Path(f"{path}-wal"), Path(f"{path}-shm")))
    if found:
        return found
    if code in (_SQLITE_PERM, _SQLITE_READONLY):
        return PERMISSION
    return None


def holds_progress(path: Path) -> bool:
    """True when `path` is a file with something in it: progress that a fault could have put at risk.

    A missing file, an empty one (SQLite creates the file before its first write, so a failed first
    write can leave one behind) or a folder (creating the data folder failed) holds nothing yet, and
    a message about it must not call anything "intact"."""
    try:
        return path.is_file() and path.stat().st_size > 0
    except OSError:
        return False


def describe_fault(path: Path, exc: BaseException, doing: str = "opened") -> str | None:
    """The message for a non-damage failure (full disk, read-only file system, permission), or
    None when the error is none of these (the caller keeps its own message).

    Each says truthfully what became of the data: an existing progress file is intact; where none
    existed yet, nothing was lost because nothing had been saved."""
    kind = kind_of(path, exc)
    folder = path.parent
    detail = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
    existing = holds_progress(path)
    if kind == FULL:
        try:
            st = os.statvfs(folder)
            free = f"; {st.f_bavail * st.f_frsize // 1024} KiB free"
        except OSError:
            free = ""
        state = ("Your progress file is intact and nothing saved earlier was lost" if existing else
                 "There was no progress saved there yet, so nothing was lost")
        return (f"{path} could not be {doing}: the disk holding {folder} is full ({detail}{free}). "
                f"{state}: free some space there (or use another --data-dir) and run again.")
    if kind == READ_ONLY:
        if existing:
            return (f"{path} could not be {doing}: {folder} is on a read-only file system ({detail}). "
                    f"The file is intact and was not changed; ppo-drill needs to write beside it (its "
                    f"-wal and -shm files) and to save your progress there: remount it read-write, or "
                    f"copy the folder somewhere writable and point --data-dir (or PPO_DRILL_HOME) at "
                    f"the copy.")
        return (f"{path} could not be {doing}: {folder} is on a read-only file system ({detail}). "
                f"No progress file exists there yet, so nothing was lost; ppo-drill needs a writable "
                f"folder to create one in: remount it read-write, or point --data-dir (or "
                f"PPO_DRILL_HOME) at a writable folder.")
    if kind == PERMISSION:
        if existing:
            return (f"{path} could not be {doing}: you may not write to it or to {folder} "
                    f"(permission denied: {detail}). The file is intact and was not changed: give "
                    f"your user write permission there (chmod u+w, or chown it back if another user "
                    f"owns it), or use another --data-dir.")
        return (f"{path} could not be {doing}: you may not write to {folder} (permission denied: "
                f"{detail}). No progress file exists there yet, so nothing was lost: give your user "
                f"write permission there, or use another --data-dir (or PPO_DRILL_HOME).")
    return None


def is_damage(exc: BaseException) -> bool:
    """True for SQLite's own verdict that the file is corrupt or not a database."""
    code = getattr(exc, "sqlite_errorcode", None)
    return isinstance(code, int) and code & 0xFF in DAMAGE_CODES


__all__ = ["describe_fault", "holds_progress", "is_damage", "kind_of", "probe", "FULL", "READ_ONLY", "PERMISSION"]
