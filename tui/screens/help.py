"""`HelpScreen`: the keys, and what each screen is for, as Markdown kept beside the screen. The
section of the screen help was opened from comes first, then the introduction and the others."""
from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer

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

SECTIONS = {
    "DashboardScreen": """\
## Dashboard
At the top, the study plan: days left to your interview, today's new cards, reviews, drills and mock
with their progress, and readiness per topic (the predicted recall on the interview day, weakest
first). Below: cards due now and new today, your streak, drills due again, the topics you miss most,
and every drill with its status (never tried, failed, passed) and your best passing time.

| key | does |
| --- | --- |
| `r` | review the cards due |
| `d` | the drill list |
| `enter` | open the highlighted drill |
| `p` | paste code and check it |
| `m` / `s` | mock interview / statistics |
| `i` | interview date and mock mode (coached or like an interview) |
| `?` | this help |
| `q` | quit |
""",
    "ReviewScreen": """\
## Card review
The front of a card; think of your answer, then reveal the back and rate how well you knew it.
Each rating button shows when the card would come back.

| key | does |
| --- | --- |
| `space` | show the answer |
| `1` `2` `3` `4` | Again, Hard, Good, Easy |
| `u` | undo the last rating |
| `l` | English / 中文 (remembered) |
| `a` | when nothing is due: practise ahead (a preview; ratings are not recorded) |
| `w` | when nothing is due: practise ahead on the drill of lowest recall (its checks change no schedule) |
| `escape` | back |
""",
    "MockScreen": """\
## Mock interview
One overall clock and a soft budget per item: 2-3 coding drills, each followed by questions on the
concepts next to it, one of them "what would you change if ...". Like an interview, a run of the
checks says pass or fail and shows the smallest failing input; the scorecard reveals the rest (the
named mistakes, your typed answers beside the cards', your code against the model answer). The
coached setting (`i` on the dashboard) keeps the named mistake during the mock.

| key | does |
| --- | --- |
| `enter` | start (the start panel: `+` / `-` minutes, `r` another seed, `c` continue) |
| `ctrl+r` | run the checks / reveal the card's answer |
| `f2` | move to the drill's prompt (arrows and page keys scroll it) and back |
| `t` | type an answer to a question |
| `1` `2` `3` | missed, partly, knew it (as a card's Again, Hard, Good) |
| `ctrl+b` | pause / resume (listed on the scorecard) |
| `ctrl+n` | give up the drill / skip the question |
| `ctrl+f` | finish now |
| `n` | on the scorecard: put "study next" on today's plan |
| `h` | mock history: reopen any scorecard, `c` compares two runs of a seed |
| `escape` | back (an unfinished mock is kept) |
""",
    "DrillListScreen": """\
## Drill list
Every drill in track order. *write* drills ask for a function from scratch; *fix-the-bug* drills
start from code with one real-world mistake in it. Filter by topic, difficulty, framework or status.

| key | does |
| --- | --- |
| `enter` | open the drill |
| `f` | go to the filters (tab moves between them) |
| `c` | clear the filters |
| `escape` | back |
""",
    "WorkspaceScreen": """\
## Drill workspace
The prompt on the left, your code on the right, the clock counting down from the target time
(overtime is shown, never enforced). Your answer is saved as you type and reopened next time.
Every run of the checks is kept in your record; the drill's schedule rates each sitting once, by its
best run (passed within the target Good, passed late Hard, never passed Again), so checking until it
passes counts as one pass.

| key | does |
| --- | --- |
| `ctrl+r` | run the checks (a second run replaces the first) |
| `ctrl+t` | the next hint (three levels) |
| `f2` | switch between prompt, hints and results |
| `f3` | layout: side by side, the editor alone, the prompt alone (for small terminals; arrows and page keys scroll it) |
| `alt+down` `alt+up` | page the prompt, hints or results down / up from the editor |
| `ctrl+l` | review the card of the named mistake |
| `ctrl+b` | pause / resume the clock |
| `ctrl+f` | switch framework (numpy / torch) |
| `ctrl+o` | open the answer in `$EDITOR` |
| `ctrl+n` | reset to the starter (asks first) |
| `ctrl+g` | show the model answer (asks first if you have not tried) |
| `escape` | back (your code is saved) |

Enter keeps the indentation of the line above (one level more after a line ending in `:`).
The results panel shows the verdict, each failed check, the smallest counterexample (inputs,
expected, got) and the named mistakes with their explanations.
""",
    "PasteScreen": """\
## Paste and check
Paste an answer written anywhere with your terminal's paste (ctrl+shift+v, cmd+v, or the mouse),
or type a file path above and press enter. The drill is detected from the function name and the
framework from the imports, or choose them above.

How pastes count: a paste that runs is recorded as an untimed attempt at its drill (it updates the
drill's status and schedule, but never its best time); a paste that does not run at all (a syntax
error, no drill function) is not recorded.

| key | does |
| --- | --- |
| `ctrl+r` | check |
| `ctrl+o` | load a file |
| `ctrl+n` | clear the box (ctrl+z brings it back) |
| `ctrl+l` | review the card of the named mistake |
| `escape` | back |
""",
    "MockScreen": """\
## Mock interview
A timed session like a real interview: two or three coding drills and a set of follow-up questions.
The start panel sets the length and the seed (the same seed gives the same session); the clock
starts when you press enter. The top line shows the overall clock and the current item's own
soft target; nothing is cut off when a clock runs out. Pausing covers the work.

| key | does |
| --- | --- |
| `enter` | start (on the start panel) |
| `+` / `-` | five minutes more / less (start panel) |
| `r` | a new seed (start panel) |
| `c` | continue an unfinished mock (start panel) |
| `ctrl+r` | coding item: run the checks · question: reveal the model answer |
| `f2` | coding item: move to the prompt (arrows and page keys scroll it) and back to the editor |
| `f3` | coding item: the editor alone, the prompt alone, side by side |
| `t` | question: type your answer in the notes box before revealing |
| `1` `2` `3` | question: grade yourself — missed, partly, knew it |
| `ctrl+n` | give up on this item / skip to the next |
| `ctrl+b` | pause / resume |
| `ctrl+f` | finish now and see the scorecard |
| `escape` | back (an unfinished mock can be continued later) |

The scorecard shows each item's time and verdict, the mistakes named and the cards they send back.
""",
    "StatsScreen": """\
## Statistics
Your numbers, in tabs: reviews per day and retention, the cards falling due over the next 30 days,
drill solve times against each drill's target, mock scores over time, and the pitfall profile (the
mistakes the checker named most often). `ppo-drill stats` prints the same numbers.

| key | does |
| --- | --- |
| `left` / `right` | the next tab (when the tabs have focus) |
| `enter` | pitfall profile: review the highlighted mistake's card |
| `r` | refresh |
| `escape` | back |
""",
}


def help_markdown(about: str | None = None) -> str:
    """The whole help; the section for screen class `about` comes first, above the introduction, so it
    is what shows without scrolling even at 80x24."""
    first = [SECTIONS[about]] if about in SECTIONS else []
    rest = [SECTIONS[name] for name in SECTIONS if name != about]
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
        yield Footer(compact=True)
