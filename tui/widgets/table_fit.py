"""Column widths for a `DataTable` that must fit its pane: the fixed columns keep their natural width and
the flexible ones share what is left (the widest gives way first), each cell cut with "…" at its column's
width. Widths are given to the table rather than measured by it, so a frame drawn before the table
measured new rows is already right."""
from __future__ import annotations

#: what a DataTable draws besides its cells: one column of padding each side of every cell, a scrollbar
CELL_PADDING = 2
SCROLLBAR = 2


def fit_columns(width: int, natural: list[int], flexible: set[int], minimum: int = 8) -> list[int]:
    """Widths for columns of `natural` widths in a table `width` columns wide: the `flexible` ones are
    narrowed, the widest first, until all fit (none below `minimum`, nor below its natural width when
    that is smaller). A `width` of 0 (not laid out yet) keeps every natural width."""
    widths = list(natural)
    if width <= 0:
        return widths
    room = width - CELL_PADDING * len(widths) - SCROLLBAR
    while sum(widths) > room:
        shrinkable = [i for i in flexible if widths[i] > min(minimum, natural[i])]
        if not shrinkable:
            break
        widest = max(shrinkable, key=lambda i: widths[i])
        widths[widest] -= 1
    return widths


def clip(text: str, width: int) -> str:
    """`text` cut to `width` characters, marked with … where it was cut."""
    return text if len(text) <= width else text[:max(0, width - 1)] + "…"
