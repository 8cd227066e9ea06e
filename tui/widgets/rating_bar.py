"""`RatingBar`: the four answer buttons of a card review, each with the interval it would give
(Anki style: "Good · 3d"; with fuzzing on, the range the review can land in: "Easy · 6-11d"), named
in the review's language ("良好 · 3d" in 中文)."""
from __future__ import annotations

from datetime import datetime

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.message import Message
from textual.widgets import Button

from cards.schedule.intervals import RATING_NAMES, format_preview, rating_names

_VARIANTS = {1: "error", 2: "warning", 3: "success", 4: "primary"}


class RatingBar(Horizontal):
    """Buttons 1-4; pressing one (or its key on the screen) posts `RatingBar.Rated`."""

    DEFAULT_CSS = """
    RatingBar { height: 3; width: 100%; align-horizontal: center; }
    RatingBar Button { width: 1fr; max-width: 22; min-width: 12; margin: 0 1; }
    """

    class Rated(Message):
        def __init__(self, rating: int) -> None:
            super().__init__()
            self.rating = rating

    def compose(self) -> ComposeResult:
        for rating, name in RATING_NAMES.items():
            yield Button(f"{rating} {name}", id=f"rate-{rating}", variant=_VARIANTS[rating],
                         compact=False)

    def show_preview(self, preview: dict[int, datetime], now: datetime, fuzz: bool = True,
                     note: str | None = None, lang: str = "en") -> None:
        """Label each button, named in `lang` ("en" or "zh"), with the interval its rating would give
        from `now` (unfuzzed `preview`; with `fuzz`, the range fuzzing can move it to), or with `note`
        where a rating changes no schedule (practising ahead)."""
        for rating, name in rating_names(lang).items():
            self.query_one(f"#rate-{rating}", Button).label = (
                f"{rating} {name} · {note or format_preview(preview[rating] - now, fuzz)}")

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.post_message(self.Rated(int(event.button.id.split("-")[1])))
