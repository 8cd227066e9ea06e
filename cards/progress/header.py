"""What a progress file says about itself, read without SQLite: `peek(path)`.

Opening a database in WAL mode with SQLite is not a read-only act: the last connection to close
checkpoints the `-wal` file into the database and deletes it. A file written by a newer ppo-drill
must be left exactly as it is, so its schema version (`PRAGMA user_version`, bytes 60-63 of page 1)
and application id (bytes 68-71) are read here from the bytes: from the newest committed copy of
page 1 in the `-wal` file when there is one (an un-checkpointed migration lives only there), else
from the database file. Frames are trusted only as far as SQLite itself would: matching salts, a
valid running checksum, up to the last commit frame.
"""
from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path

_WAL_MAGIC = (0x377F0682, 0x377F0683)  # little- / big-endian checksums
_WAL_HEADER = 32
_FRAME_HEADER = 24


@dataclass(frozen=True)
class Header:
    user_version: int
    application_id: int
    from_wal: bool


def _fields(page1: bytes) -> tuple[int, int]:
    return struct.unpack(">I", page1[60:64])[0], struct.unpack(">I", page1[68:72])[0]


def _checksum(data: bytes, s0: int, s1: int, big: bool) -> tuple[int, int]:
    words = struct.unpack((">" if big else "<") + f"{len(data) // 4}I", data)
    for i in range(0, len(words), 2):
        s0 = (s0 + words[i] + s1) & 0xFFFFFFFF
        s1 = (s1 + words[i + 1] + s0) & 0xFFFFFFFF
    return s0, s1


def _page1_from_wal(wal: Path) -> bytes | None:
    """The newest committed page 1 in a WAL file, or None."""
    try:
        data = wal.read_bytes()
    except OSError:
        return None
    if len(data) < _WAL_HEADER:
        return None
    magic, _version, page_size, _seq, salt1, salt2, c0, c1 = struct.unpack(">8I", data[:_WAL_HEADER])
    if magic not in _WAL_MAGIC or page_size < 512 or page_size & (page_size - 1):
        return None
    big = magic & 1 == 1
    if _checksum(data[:24], 0, 0, big) != (c0, c1):
        return None
    s0, s1 = c0, c1
    latest = committed = None
    offset = _WAL_HEADER
    while offset + _FRAME_HEADER + page_size <= len(data):
        page_no, db_size, f_salt1, f_salt2, f0, f1 = struct.unpack(">6I", data[offset:offset + _FRAME_HEADER])
        page = data[offset + _FRAME_HEADER:offset + _FRAME_HEADER + page_size]
        if (f_salt1, f_salt2) != (salt1, salt2):
            break
        s0, s1 = _checksum(data[offset:offset + 8], s0, s1, big)
        s0, s1 = _checksum(page, s0, s1, big)
        if (s0, s1) != (f0, f1):
            break
        if page_no == 1:
            latest = page
        if db_size:  # a commit frame: everything up to here is part of the database
            committed = latest
        offset += _FRAME_HEADER + page_size
    return committed


def peek(path: Path) -> Header | None:
    """The schema version and application id of the SQLite file at `path` (None if unreadable)."""
    wal = Path(str(path) + "-wal")
    page1 = _page1_from_wal(wal)
    if page1 is not None:
        return Header(*_fields(page1), from_wal=True)
    try:
        with open(path, "rb") as fh:
            head = fh.read(100)
    except OSError:
        return None
    if len(head) < 100:
        return None
    return Header(*_fields(head), from_wal=False)
