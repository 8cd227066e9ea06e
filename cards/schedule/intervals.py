"""Human-readable intervals for rating buttons ("<1m", "10m", "1d", "3.2mo", "1.1y"), Anki style.

Kept apart from the scheduler so the TUI can format without importing `fsrs`.
"""
from __future__ import annotations

from datetime import timedelta

RATING_NAMES = {1: "Again", 2: "Hard", 3: "Good", 4: "Easy"}


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
