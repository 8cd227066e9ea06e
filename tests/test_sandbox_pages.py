"""The zygote's memory in huge pages (checker/sandbox/pages.py): what is collapsed, in what slices, and
that a running zygote ends up forking from huge pages where the kernel has them."""
from __future__ import annotations

import mmap
import time

import pytest

from checker.sandbox import Call, Limits, pages, prepare_parent, run_candidate
from checker.sandbox.zygote import zygote

SIZE = pages.huge_page_size()


def _collapsible() -> bool:
    """Whether this kernel collapses an anonymous mapping of this process into a huge page."""
    if not SIZE:
        return False
    area = mmap.mmap(-1, 3 * SIZE, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    try:
        area.write(b"x" * len(area))
        import ctypes

        base = ctypes.addressof(ctypes.c_char.from_buffer(area))
        start = -(-base // SIZE) * SIZE
        return pages.collapse(start, SIZE)
    finally:
        import gc

        gc.collect()  # the from_buffer export is gone before the close
        area.close()


def test_slices_cover_the_private_memory_in_whole_huge_pages_last_first():
    if not SIZE:
        pytest.skip("no transparent huge pages on this kernel")
    ranges = pages.private_memory()
    assert ranges, "no anonymous memory found in /proc/self/maps"
    assert all(start % SIZE == 0 and length % SIZE == 0 and length > 0 for start, length in ranges)
    cut = pages.slices(ranges)
    assert all(0 < length <= pages.SLICE_PAGES * SIZE for _, length in cut)
    assert sum(length for _, length in cut) == sum(length for _, length in ranges)
    assert sorted(cut) == cut[::-1]  # popped from the end: the lowest address first
    covered = {(s, s + n) for s, n in ranges}
    assert all(any(lo <= s and s + n <= hi for lo, hi in covered) for s, n in cut)


def test_turned_off_there_is_nothing_to_collapse(monkeypatch):
    monkeypatch.setenv("PPO_DRILL_HUGE_PAGES", "0")
    assert pages.huge_page_size() is None and pages.private_memory() == [] and pages.slices() == []


def test_a_running_zygote_forks_from_huge_pages_and_still_runs_answers():
    if not _collapsible():
        pytest.skip("this kernel does not collapse anonymous memory into huge pages (MADV_COLLAPSE)")
    prepare_parent()
    r = run_candidate("def answer(x):\n    return x + 1\n", "answer", [Call((1,))], limits=Limits(wall_s=10))
    assert r.ok and r.results[0].value == 2
    deadline = time.monotonic() + 30
    while pages.anonymous_huge_kb(zygote().pid) < 16 * 1024 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert pages.anonymous_huge_kb(zygote().pid) >= 16 * 1024  # the heap alone is tens of MB
    r = run_candidate("def answer(x):\n    return x * 3\n", "answer", [Call((2,))], limits=Limits(wall_s=10))
    assert r.ok and r.results[0].value == 6
