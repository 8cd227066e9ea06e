"""`HelpScreen`: the keys, and what each screen is for, as Markdown kept beside the screen. The
section of the screen help was opened from comes first."""
from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Markdown

from tui.widgets.textual_guards import Header

INTRO = """\
# ppo-drill

Practise for RL / LLM post-training interviews: **cards** on a spaced-repetition (FSRS) schedule,
timed **coding drills** checked against a reference PPO core, and a checker that **names your
mistake** and sends the related card back for review. Everything you do is saved as it happens.

Anywhere: **F1** help · **ctrl+p** command palette (open any screen, change the theme) · **ctrl+q** quit.
"""

SECTIONS = {
    "DashboardScreen": """\
## Dashboard
Cards due now and new today, your streak, drills due again, the topics you miss most, and every
drill with its status (never tried, failed, passed) and your best passing time.

| key | does |
| --- | --- |
| `r` | review the cards due |
| `d` | the drill list |
| `enter` | open the highlighted drill |
| `p` | paste code and check it |
| `m` / `s` | mock interview / statistics |
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
| `escape` | back |
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

| key | does |
| --- | --- |
| `ctrl+r` | run the checks (a second run replaces the first) |
| `ctrl+t` | the next hint (three levels) |
| `f2` | switch between prompt, hints and results |
| `ctrl+l` | review the card of the named mistake |
| `ctrl+b` | pause / resume the clock |
| `ctrl+f` | switch framework (numpy / torch) |
| `ctrl+o` | open the answer in `$EDITOR` |
| `ctrl+n` | reset to the starter (asks first) |
| `ctrl+g` | show the model answer (asks first if you have not tried) |
| `escape` | back (your code is saved) |

The results panel shows the verdict, each failed check, the smallest counterexample (inputs,
expected, got) and the named mistakes with their explanations.
""",
    "PasteScreen": """\
## Paste and check
Paste an answer written anywhere with your terminal's paste (ctrl+shift+v, cmd+v, or the mouse),
or type a file path above and press enter. The drill is detected from the function name and the
framework from the imports, or choose them above. The attempt is recorded like any other.

| key | does |
| --- | --- |
| `ctrl+r` | check |
| `ctrl+o` | load a file |
| `ctrl+l` | review the card of the named mistake |
| `escape` | back |
""",
}


def help_markdown(about: str | None = None) -> str:
    """The whole help, the section for screen class `about` first."""
    order = sorted(SECTIONS, key=lambda name: name != about)
    return INTRO + "\n" + "\n".join(SECTIONS[name] for name in order)


class HelpScreen(Screen):
    """The help Markdown, opened from any screen with f1 (that screen's section first)."""

    BINDINGS = [Binding("escape,q,f1", "app.pop_screen", "Back")]

    def __init__(self, about: str | None = None) -> None:
        super().__init__()
        self.about = about

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll(id="help"):
            yield Markdown(help_markdown(self.about))
        yield Footer(compact=True)
