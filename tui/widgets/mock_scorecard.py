"""`MockScorecard`: the end of a mock interview: the scorecard as `cards.plan.mock.format_scorecard`
writes it (items, score with its rubric, pauses, what to study next), then everything the mock kept
back, item by item (`cards.plan.mock_review.review_items`): the typed answer beside the card's answer
(drawn as Markdown, as the review draws cards),
the submitted code against the model answer as a diff, the named mistakes with their explanations and
the hints, and the time against its budget. Scrollable.

The widget shows what it is given, so what a candidate reads is what the scorer computed. Lines of the
scorecard too long for the pane wrap under their own text (an item's line under its text after the
number, a mistake under "mistake:"), never back at the left edge."""
from __future__ import annotations

import re
import textwrap
from typing import Any, Sequence

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from cards.plan.mock_review import time_text
from tui.widgets.markdown_text import MarkdownText

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


def _markdown(text: str):
    """Card text drawn as Markdown, as the card review draws it (code lines broken, not cropped)."""
    return MarkdownText._render_md(text)


def _diff_text(lines: Sequence[str]) -> Text:
    text = Text()
    for line in lines:
        style = ("green" if line.startswith("+") and not line.startswith("+++") else
                 "red" if line.startswith("-") and not line.startswith("---") else
                 "cyan" if line.startswith("@@") else "dim")
        text.append(line + "\n", style=style)
    return text


def review_renderable(items: Sequence[Any]) -> Group:
    """Each item as revealed after the mock (see the module docstring)."""
    parts: list = [Text("What the mock kept back, item by item", style="bold underline"), Text("")]
    for it in items:
        style = "green" if it.outcome in ("passed", "knew") else "yellow" if it.outcome == "partly" else "red"
        parts.append(Text.assemble((f"{it.index + 1}. {it.kind} {it.ref}  ", "bold"), (it.outcome, style),
                                   f"  ·  {time_text(it)}"))
        if it.kind == "question":
            parts.append(_markdown(it.question))
            table = Table(expand=True, show_lines=False, pad_edge=False)
            table.add_column("Your answer", ratio=1, overflow="fold")
            table.add_column("The card's answer", ratio=1, overflow="fold")
            # the card's text is Markdown (bold, code), drawn as the review draws it; what was typed is
            # shown exactly as typed
            table.add_row(Text(it.typed or "(nothing typed)", style="" if it.typed else "dim"),
                          _markdown(it.card_answer))
            parts.append(table)
        else:
            for m in it.mistakes:
                parts.append(Text.assemble(("Mistake: ", "bold yellow"), (m["title"], "bold"), f"  [{m['id']}]"))
                if m.get("explanation"):
                    parts.append(Text("  " + m["explanation"]))
                if m.get("card"):
                    parts.append(Text(f"  card: {m['card']}", style="cyan"))
            if it.diff:
                parts.append(Text("Your code (-) against the model answer (+):", style="bold"))
                parts.append(_diff_text(it.diff))
            elif it.code and it.model:
                parts.append(Text("Your code is the model answer.", style="green"))
            elif not it.code:
                parts.append(Text("No code was submitted.", style="dim"))
            if it.hints and it.outcome != "passed":
                parts.append(Text("Hints:", style="bold"))
                parts.append(_markdown("\n".join("- " + " ".join(h.split()) for h in it.hints)))
        parts.append(Text(""))
    return Group(*parts)


class MockScorecard(VerticalScroll):
    """The finished session's scorecard and its revealed items."""

    DEFAULT_CSS = """
    MockScorecard { padding: 1 2; }
    MockScorecard #scorecard-review { margin-top: 1; }
    """

    can_focus = True

    def compose(self) -> ComposeResult:
        yield Static("", id="scorecard")
        yield Static("", id="scorecard-review")

    def show(self, text: str, items: Sequence[Any] = ()) -> None:
        """Show the scorecard `text` (plain text: titles may hold brackets) and the revealed `items`
        (`ItemReview`s)."""
        self.text = text
        self.query_one("#scorecard", Static).update(_Hanging(text))
        self.query_one("#scorecard-review", Static).update(review_renderable(items) if items else "")
        self.scroll_home(animate=False)
