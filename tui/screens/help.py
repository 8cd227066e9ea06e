"""`HelpScreen`: what each screen is for and its keys. The prose is kept here; each key table is made
from the screen's own `BINDINGS` (each binding says what it does in its tooltip) and `HELP_KEYS` (keys
its widgets handle), so the help lists every key a screen has and cannot drift from them. The section of
the screen help was opened from comes first, then the introduction and the others."""
from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.keys import format_key
from textual.screen import Screen

from tui.screens import (
    dashboard,
    drill_list,
    mock,
    mock_history,
    paste,
    review,
    stats,
    workspace,
)
from tui.widgets.footer import KeyFooter
from tui.widgets.markdown_text import MarkdownText
from tui.widgets.textual_guards import Header

INTRO = """\
# ppo-drill

Practise for RL / LLM post-training interviews: **cards** on a spaced-repetition (FSRS) schedule,
timed **coding drills** checked against a reference PPO core, and a checker that **names your
mistake** and sends the related card back for review. Everything you do is saved as it happens.

Anywhere: **F1** help · **ctrl+p** command palette (open any screen or drill by name, a drill's
fix-the-bug variant or its cards; change the theme) · **ctrl+q** quit.
"""

#: Each screen's prose, by screen class: what it is for. Its key table is made from the screen's own
#: `BINDINGS` (and `HELP_KEYS`, the keys its widgets handle), so help cannot drift from the keys.
SECTIONS = {
    "DashboardScreen": ("""\
## Dashboard
At the top, the study plan: days left to your interview, today's new cards, reviews, drills and mock
with their progress and the time they take, and readiness per topic (the predicted recall on the
interview day, weakest first). Below: cards due now and new today, your streak, drills due again, the
topics you miss most, and every drill with its status (never tried, failed, passed) and your best
passing time.
""", ""),
    "ReviewScreen": ("""\
## Card review
The front of a card; think of your answer, then reveal the back and rate how well you knew it.
Each rating button shows when the card would come back.
""", ""),
    "MockScreen": ("""\
## Mock interview
A timed session like a real interview: two or three coding drills, each followed by questions on the
concepts next to it, one of them "what would you change if ...". The start panel sets the length and
the seed (the same seed gives the same session); the clock starts when you press enter. The top line
shows the overall clock and the current item's own soft target; nothing is cut off when a clock runs
out. Pausing covers the work. Like an interview, a run of the checks says pass or fail and shows the
smallest failing input; the scorecard reveals the rest (the named mistakes, your typed answers beside
the cards', your code against the model answer). The coached setting (`i` on the dashboard) keeps the
named mistake during the mock.
""", "The scorecard shows each item's time and verdict, the mistakes named and the cards they send back."),
    "MockHistoryScreen": ("""\
## Mock history
Every finished mock, newest first, with its seed, length and score.
""", ""),
    "DrillListScreen": ("""\
## Drill list
Every drill in track order. *write* drills ask for a function from scratch; *fix-the-bug* drills
start from code with one real-world mistake in it; *test* drills ask for tests that catch the known
bugs. Filter by topic, difficulty, framework or status.
""", ""),
    "WorkspaceScreen": ("""\
## Drill workspace
The prompt on the left, your code on the right, the clock counting down from the target time
(overtime is shown, never enforced). Your answer is saved as you type and reopened next time.
Every run of the checks is kept in your record; the drill's schedule rates each sitting once, by its
best run (passed within the target Good, passed late Hard, never passed Again), so checking until it
passes counts as one pass.
""", """\
Enter keeps the indentation of the line above (one level more after a line ending in `:`); Backspace in
the indentation removes one level. The results panel shows the verdict, each failed check, the smallest
counterexample (inputs, expected, got) and the named mistakes with their explanations."""),
    "PasteScreen": ("""\
## Paste and check
Paste an answer written anywhere with your terminal's paste (ctrl+shift+v, cmd+v, or the mouse),
or type a file path above and press enter. The drill is detected from the function name and the
framework from the imports, or choose them above.

How pastes count: a paste that runs is recorded as an untimed attempt at its drill (it updates the
drill's status and schedule, but never its best time); a paste that does not run at all (a syntax
error, no drill function) is not recorded.
""", ""),
    "StatsScreen": ("""\
## Statistics
Your numbers, in tabs: reviews per day and retention, the cards falling due over the next 30 days,
drill solve times against each drill's target, mock scores over time, readiness per topic and the
pitfall profile (the mistakes the checker named most often). `ppo-drill stats` prints the same numbers.
""", ""),
}

_KEY_NAMES = {"escape": "escape", "enter": "enter", "space": "space", "up": "up", "down": "down",
              "left": "left", "right": "right"}


def _key_name(key: str) -> str:
    """A key as help writes it: `ctrl+r`, `alt+down`, `+`, `?`, `escape`."""
    *modifiers, last = key.split("+")
    return "+".join([*modifiers, _KEY_NAMES.get(last) or format_key(last)])


def key_rows(screen_cls: type) -> list[tuple[str, str]]:
    """(keys, what they do) for every binding of `screen_cls`, then its `HELP_KEYS`. A binding says what
    it does in its tooltip (its footer label when it has none); bindings on one key share a row."""
    rows: dict[str, list[str]] = {}
    for binding in screen_cls.BINDINGS:
        b = binding if isinstance(binding, Binding) else Binding(*binding)
        keys = " / ".join(f"`{_key_name(k.strip())}`" for k in b.key.split(","))
        text = b.tooltip or b.description
        said = rows.setdefault(keys, [])
        if text and text not in said:
            said.append(text)
    for keys, text in getattr(screen_cls, "HELP_KEYS", ()):
        rows.setdefault(" / ".join(f"`{k}`" for k in keys.split(",")), []).append(text)
    return [(keys, " · ".join(texts)) for keys, texts in rows.items()]


def _screen_classes() -> dict[str, type]:
    classes = (dashboard.DashboardScreen, review.ReviewScreen, mock.MockScreen, mock_history.MockHistoryScreen,
               drill_list.DrillListScreen, workspace.WorkspaceScreen, paste.PasteScreen, stats.StatsScreen)
    return {cls.__name__: cls for cls in classes}


def section(name: str, screen_cls: type) -> str:
    """One screen's help: its prose, its key table, and what follows the table."""
    prose, after = SECTIONS[name]
    table = ["| key | does |", "| --- | --- |"] + [f"| {keys} | {does} |" for keys, does in key_rows(screen_cls)]
    return "\n".join([prose.rstrip(), "", *table, *(["", after] if after else []), ""])


def help_markdown(about: str | None = None) -> str:
    """The whole help; the section for screen class `about` comes first, above the introduction, so it
    is what shows without scrolling even at 80x24."""
    classes = _screen_classes()
    first = [section(about, classes[about])] if about in SECTIONS else []
    rest = [section(name, classes[name]) for name in SECTIONS if name != about]
    return "\n".join([*first, INTRO, *rest])


class HelpScreen(Screen):
    """The help Markdown, opened from any screen with f1 (that screen's section first)."""

    BINDINGS = [Binding("escape,q,f1", "app.pop_screen", "Back")]

    def __init__(self, about: str | None = None) -> None:
        super().__init__()
        self.about = about

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll(id="help"):  # Rich-drawn Markdown: Textual's widget takes seconds for this much
            yield MarkdownText(help_markdown(self.about))
        yield KeyFooter()
