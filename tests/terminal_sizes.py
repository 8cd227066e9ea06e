"""The terminal sizes the screen tests check (80x24, the smallest supported, and 100x30), and how one app
run checks a state at each: resized to the size and laid out again, never a second app per size."""
from __future__ import annotations

SIZES = [(80, 24), (100, 30)]


async def resize(pilot, size) -> None:
    """The terminal resized to `size` (nothing done when it is that size already), and laid out again."""
    if tuple(pilot.app.size) != tuple(size):
        await pilot.resize_terminal(*size)
        await pilot.pause()
        await pilot.pause()
    assert tuple(pilot.app.size) == tuple(pilot.app.screen.size) == tuple(size)


async def at_sizes(pilot):
    """Each of SIZES, the terminal's own first, then the others, each after `resize`: a state is checked at
    the size the app is at, then at the other (no resize back: the next state starts at the last size)."""
    here = tuple(pilot.app.size)
    for size in sorted(SIZES, key=lambda size: size != here):
        await resize(pilot, size)
        yield size


async def at_each_size(pilot, check, back: bool = True) -> None:
    """`await check(size)` at each of SIZES, in order; with `back`, the terminal is at the first size again
    afterwards, for a flow to go on there."""
    for size in SIZES:
        await resize(pilot, size)
        await check(size)
    if back:
        await resize(pilot, SIZES[0])
