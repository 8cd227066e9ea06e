"""`MockScorecard`: the end of a mock interview: the scorecard as `cards.plan.mock.format_scorecard`
writes it (items, score with its rubric, pauses, what to study next), scrollable.

The screen shows the text and nothing else, so what a candidate reads is what the scorer computed.
Lines too long for the pane wrap under their own text (an item's line under its text after the
number, a mistake under "mistake:"), never back at the left edge."""
from __future__ import annotations

import re
import textwrap

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static


_LEAD = re.compile(r"^(\s*(?:\d+\.\s+|[A-Za-z ]+:\s+)?)")


def hanging_lines(text: str, width: int) -> list[str]:
    """`text` wrapped to `width`, each continuation indented to where its line's text starts (after
    the leading spaces and an "NN. " or "label: " prefix)."""
    out: list[str] = []
    for line in text.splitlines():
        if len(line) <= width or width < 20:
            out.append(line)
            continue
        lead = _LEAD.match(line).group(1)
        hang = " " * min(len(lead), width // 2)
        out += textwrap.wrap(line, width, subsequent_indent=hang, break_long_words=True,
                             break_on_hyphens=False, drop_whitespace=True) or [""]
    return out


class _Hanging:
    """A Rich renderable: the text wrapped by `hanging_lines` at the width it is drawn at."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __rich_console__(self, console, options):
        for line in hanging_lines(self.text, options.max_width):
            yield Text(line, no_wrap=True, overflow="crop")


class MockScorecard(VerticalScroll):
    """The finished session's scorecard."""

    DEFAULT_CSS = """
    MockScorecard { padding: 1 2; }
    """

    def compose(self) -> ComposeResult:
        yield Static("", id="scorecard")

    def show(self, text: str) -> None:
        self.text = text
        self.query_one("#scorecard", Static).update(_Hanging(text))
