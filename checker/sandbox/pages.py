"""Huge pages under the zygote's memory, so that forking a child copies a few hundred page-table entries
instead of tens of thousands.

Every run forks the zygote's memory twice (the keeper, then the answer's process), and the kernel's fork
copies one page-table entry per resident page of private memory, which the child's exit then tears
down. With torch and numpy loaded the zygote holds about 140 MB of anonymous memory (torch's C++ start-up
on malloc's heap, Python's arenas) in 4 KiB pages: on the project's machine a bare fork and exit of it
took about 15 ms of kernel time, and a whole run of a one-line answer about 40 ms, most of it those
forks. The same memory collapsed into 2 MiB pages (MADV_COLLAPSE, Linux 6.1 and later) is a few hundred
entries: the fork and exit took about 4 ms and the run about 18 ms (`bench/sandbox_overhead.py`).

The cost: collapsing copies the memory, so a zygote forked from the trusted process no longer shares
those pages with it (about 120 MB more in all), and the copy takes 0.05-0.4 s of the zygote's time,
done in slices between requests so that no request waits behind more than one slice. Where the kernel
cannot (no transparent huge pages, an older kernel, no free 2 MiB blocks) each slice fails at once and
the zygote forks as before; nothing depends on it but speed. `PPO_DRILL_HUGE_PAGES=0` turns it off
(the bench compares both ways in one process).
"""
from __future__ import annotations

import ctypes
import os

_MADV_COLLAPSE = 25
_SIZE_FILE = "/sys/kernel/mm/transparent_hugepage/hpage_pmd_size"
SLICE_PAGES = 4  # huge pages collapsed per slice: a request waits behind at most this many (~10-30 ms)

_libc = ctypes.CDLL(None, use_errno=True)
_libc.madvise.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
_libc.madvise.restype = ctypes.c_int


def huge_page_size() -> int | None:
    """The kernel's transparent huge page size in bytes, or None where it has none or it is turned off."""
    if os.environ.get("PPO_DRILL_HUGE_PAGES") == "0":
        return None
    try:
        with open(_SIZE_FILE) as f:
            return int(f.read())
    except (OSError, ValueError):
        return None


def private_memory() -> list[tuple[int, int]]:
    """This process's anonymous private memory, malloc's heap included, as (start, length) ranges cut to
    whole huge pages (the parts of a mapping that no huge page covers stay as they are)."""
    size = huge_page_size()
    if not size:
        return []
    ranges = []
    with open("/proc/self/maps") as maps:
        for line in maps:
            fields = line.split()
            name = fields[5] if len(fields) > 5 else ""
            if fields[1] != "rw-p" or name not in ("", "[heap]"):
                continue
            low, high = (int(x, 16) for x in fields[0].split("-"))
            start, stop = -(-low // size) * size, high // size * size
            if stop > start:
                ranges.append((start, stop - start))
    return ranges


def slices(ranges: list[tuple[int, int]] | None = None) -> list[tuple[int, int]]:
    """`ranges` (default: `private_memory()`) cut into slices of at most SLICE_PAGES huge pages, the
    last one first (callers pop from the end)."""
    size = huge_page_size()
    if not size:
        return []
    step = SLICE_PAGES * size
    out = [(start + off, min(step, length - off))
           for start, length in (private_memory() if ranges is None else ranges)
           for off in range(0, length, step)]
    out.reverse()
    return out


def collapse(start: int, length: int) -> bool:
    """Back [start, start + length) with huge pages now; False where the kernel would not (never an
    error: the memory is the same either way)."""
    return _libc.madvise(start, length, _MADV_COLLAPSE) == 0


def anonymous_huge_kb(pid: int | str = "self") -> int:
    """Anonymous memory of process `pid` backed by huge pages, in KiB (tests, benches)."""
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                if line.startswith("AnonHugePages:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0
