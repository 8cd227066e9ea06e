"""`MockClock`: the mock screen's top bar: the overall time left, the current item's soft clock
against its budget, and the state (not started, paused, finished).

It reads a `cards.plan.mock.MockSession` and never keeps time itself, so what it shows is exactly what
the scorecard will count; it is marked `-paused` while the clock is stopped and `-late` once the item
is over its budget (shown, never enforced)."""
from __future__ import annotations

from typing import Any

from textual.widgets import Static


def mmss(seconds: float) -> str:
    """Seconds rounded to whole ones as m:ss (negative reads as 0:00): rounded as the scorecard
    rounds, so the bar and the scorecard never differ by a second."""
    seconds = max(0, int(round(seconds)))
    return f"{seconds // 60}:{seconds % 60:02d}"


def clock_text(session: Any, minutes: int, seed: int) -> str:
    """The bar's line for `session` (None before the start, when `minutes` and `seed` are the choice)."""
    s = session
    if s is None:
        return f"Mock interview · {minutes} min · seed {seed} · not started"
    if s.finished:
        return (f"Mock seed {s.plan.seed} · finished ({s.finish_reason}) · "
                f"{mmss(s.elapsed_s())} of {s.plan.minutes}:00 used")
    text = f"Mock seed {s.plan.seed} · {mmss(s.remaining_s())} left of {s.plan.minutes}:00"
    item = s.current
    if item is not None:
        text += (f" · item {item.index + 1}/{len(s.plan.items)} ({item.kind}) "
                 f"{mmss(s.item_elapsed_s())} / {mmss(item.budget_s)}")
    return text + (" · PAUSED" if s.paused else "")


class MockClock(Static):
    """The one-line clock bar of a mock interview."""

    DEFAULT_CSS = """
    MockClock { height: 1; padding: 0 1; background: $boost; }
    MockClock.-paused { background: $warning 40%; }
    MockClock.-late { color: $error; }
    """

    def show(self, session: Any, minutes: int, seed: int) -> None:
        """Redraw from the session's clock (called on every tick and after every step)."""
        self.update(clock_text(session, minutes, seed))
        self.set_class(session is not None and session.paused, "-paused")
        item = session.current if session is not None and not session.finished else None
        self.set_class(item is not None and session.item_elapsed_s() > item.budget_s, "-late")
