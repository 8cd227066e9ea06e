"""`MockScorecard`: the end of a mock interview: the scorecard as `cards.plan.mock.format_scorecard`
writes it (items, score with its rubric, pauses, what to study next), scrollable.

The screen shows the text and nothing else, so what a candidate reads is what the scorer computed."""
from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static


class MockScorecard(VerticalScroll):
    """The finished session's scorecard."""

    DEFAULT_CSS = """
    MockScorecard { padding: 1 2; }
    """

    def compose(self) -> ComposeResult:
        yield Static("", id="scorecard")

    def show(self, text: str) -> None:
        self.query_one("#scorecard", Static).update(text)
