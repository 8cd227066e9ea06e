"""`Countdown`: the drill clock, counting down from the target time; pausable, and past zero it
keeps counting as overtime (shown, never enforced). It starts from the time already spent on the
attempt in earlier sittings, so closing and reopening a drill does not reset it."""
from __future__ import annotations

from datetime import datetime
from typing import Callable

from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

from cards.plan.progress_summary import format_seconds


class Countdown(Static):
    """Time left on a drill. Reads the app's clock, so tests with a fixed clock render it fixed."""

    DEFAULT_CSS = """
    Countdown { width: auto; padding: 0 1; text-style: bold; }
    Countdown.-overtime { color: $error; }
    Countdown.-paused { color: $text-muted; text-style: italic; }
    """

    paused: reactive[bool] = reactive(False)

    def __init__(self, target_s: float, clock: Callable[[], datetime], already_s: float = 0.0,
                 key: str = "", **kwargs) -> None:
        """`key`: the pause key, shown after the time (the footer has no room for it at 80 columns)."""
        super().__init__(**kwargs)
        self.key = key
        self.target_s = target_s
        self.clock = clock
        self.already_s = already_s
        self.started = clock()
        self._paused_at: datetime | None = None
        self._paused_s = 0.0

    def on_mount(self) -> None:
        self.set_interval(1.0, self._tick)
        self._tick()

    def elapsed(self) -> float:
        """Seconds worked on the attempt so far (earlier sittings included), pauses excluded."""
        end = self._paused_at or self.clock()
        return self.already_s + max(0.0, (end - self.started).total_seconds() - self._paused_s)

    def restart(self) -> None:
        """Start a new attempt from the full target time (after a pass, or a reset to the starter)."""
        self.already_s = 0.0
        self.started = self.clock()
        self._paused_s = 0.0
        if self._paused_at is not None:
            self._paused_at = self.started
        self._tick()

    def toggle(self) -> bool:
        """Pause or resume; returns True when now paused."""
        if self._paused_at is None:
            self._paused_at = self.clock()
        else:
            self._paused_s += (self.clock() - self._paused_at).total_seconds()
            self._paused_at = None
        self.paused = self._paused_at is not None
        self._tick()
        return self.paused

    def _tick(self) -> None:
        left = self.target_s - self.elapsed()
        self.set_class(left < 0, "-overtime")
        self.set_class(self.paused, "-paused")
        if left >= 0:
            text = f"{format_seconds(left)} left"
        else:
            text = f"+{format_seconds(-left)} over"
        key = Text(f" {self.key}", style="dim") if self.key else ""
        self.update(Text.assemble(f"⏸ {text} (paused)" if self.paused else f"⏱ {text}", key))
