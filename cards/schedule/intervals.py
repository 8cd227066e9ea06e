"""Human-readable intervals for rating buttons ("<1m", "10m", "1d", "3.2mo", "1.1y"), Anki style, and
the range fuzzing can move an interval to ("6-11d"), so a button never promises one exact day.

Kept apart from the scheduler so the TUI can format without importing `fsrs`.
"""
from __future__ import annotations

from datetime import timedelta

RATING_NAMES = {1: "Again", 2: "Hard", 3: "Good", 4: "Easy"}
#: The same ratings as Anki's Chinese interface names them, for a review in 中文.
RATING_NAMES_ZH = {1: "重来", 2: "困难", 3: "良好", 4: "简单"}


def rating_names(lang: str = "en") -> dict[int, str]:
    """The four ratings' names in `lang` ("en" or "zh")."""
    return RATING_NAMES_ZH if lang == "zh" else RATING_NAMES


def _trim(value: float) -> str:
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def format_interval(delta: timedelta) -> str:
    """Compact interval text: seconds under a minute show as "<1m"; minutes and days whole,
    hours, months (30 days) and years (365 days) to one decimal, trailing ".0" dropped."""
    seconds = max(0.0, delta.total_seconds())
    if seconds < 60:
        return "<1m"
    minutes = seconds / 60
    if minutes < 60:
        return f"{round(minutes)}m"
    hours = minutes / 60
    if hours < 24:
        return f"{_trim(hours)}h"
    days = hours / 24
    if days < 30:
        return f"{round(days)}d"
    if days < 365:
        return f"{_trim(days / 30)}mo"
    return f"{_trim(days / 365)}y"


# FSRS's interval fuzz (fsrs.scheduler.FUZZ_RANGES, the same as Anki's): intervals of 2.5 days or more
# are moved by up to 1 day plus 15% of the part between 2.5 and 7 days, 10% of the part between 7 and
# 20 days and 5% of the part beyond 20 days.
_FUZZ_RANGES = ((2.5, 7.0, 0.15), (7.0, 20.0, 0.10), (20.0, float("inf"), 0.05))


def fuzz_range_days(interval_days: int) -> tuple[int, int]:
    """The fewest and most whole days a fuzzed review can schedule for an unfuzzed interval of
    `interval_days` (equal when no fuzz applies). Mirrors fsrs's `_get_fuzzed_interval`, which draws
    uniformly from [low, high + 1) and rounds, so `high + 1` can come out too."""
    if interval_days < 2.5:
        return interval_days, interval_days
    delta = 1.0 + sum(f * max(min(float(interval_days), end) - start, 0.0) for start, end, f in _FUZZ_RANGES)
    low, high = max(2, round(interval_days - delta)), round(interval_days + delta)
    low = min(low, high)
    return low, high + 1


def format_preview(delta: timedelta, fuzz: bool = True) -> str:
    """A rating button's interval: exact below 2.5 days, else the fuzzed range ("6-11d", "1.7-2.2mo")
    when fuzzing is on."""
    if not fuzz or delta.days < 2.5:  # fsrs fuzzes only intervals of 3 whole days or more
        return format_interval(delta)
    low, high = fuzz_range_days(delta.days)
    if low == high:
        return format_interval(timedelta(days=low))
    if high < 30:
        return f"{low}-{high}d"
    lo_text, hi_text = format_interval(timedelta(days=low)), format_interval(timedelta(days=high))
    if lo_text == hi_text:
        return f"~{lo_text}"
    unit = "".join(ch for ch in hi_text if ch.isalpha())
    if lo_text.endswith(unit):
        lo_text = lo_text[: -len(unit)]
    return f"{lo_text}-{hi_text}"
