"""`MockSetup`: the mock screen's start panel: what the drawn session holds (its seed, drills and
questions, topics), how the clock and the keys work, and whether an unfinished mock can be continued.

The clock starts only when the candidate presses enter here, so reading the rules costs no time."""
from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Markdown


def setup_text(plan: Any, minutes: int, seed: int, *, saved: bool, can_continue: bool,
               coached: bool = False) -> str:
    """The panel's Markdown for `plan` (`saved`: progress is available; `can_continue`: an
    unfinished mock exists; `coached`: the checker names mistakes during the mock)."""
    topics = ", ".join(dict.fromkeys(i.topic for i in plan.drills))
    lines = [f"# Mock interview: {minutes} minutes", "",
             f"Seed **{seed}**: {len(plan.drills)} coding drills and "
             f"{len(plan.questions)} follow-up questions on {topics}.", "",
             "One overall clock, and a soft budget per item. The clock has not started: it starts "
             "when you press **enter**, and then runs while the mock is open; **ctrl+b** pauses it, and "
             "every pause is listed on the scorecard.", "",
             "Coding: write the function in the editor, **ctrl+r** runs the checks (a pass moves "
             "on; **ctrl+n** gives up; **f2** moves to the prompt and back). Questions: answer aloud "
             "(or **t** to type), **ctrl+r** reveals the card's answer, then grade yourself "
             "**1** missed / **2** partly / **3** knew it.", "",
             ("*Coached*: the checker names your mistake during the mock (settings, **i** on the dashboard)."
              if coached else
              "*Like an interview*: a run says pass or fail and shows the smallest failing input; the "
              "mistake, its explanation and the hints are revealed on the scorecard (**i** on the "
              "dashboard switches to coached mocks)."), "",
             "**enter** starts · **+ / -** changes the minutes · **r** draws another seed · "
             "**s** types a seed to replay · **h** mock history"]
    if not saved:
        lines += ["", "*Progress is not available, so this mock will not be saved.*"]
    if can_continue:
        lines += ["", "**c** continues your unfinished mock (the time it was closed is not counted, "
                  "and the scorecard says so)."]
    return "\n".join(lines)


class MockSetup(VerticalScroll):
    """The start panel shown before the clock runs."""

    DEFAULT_CSS = """
    MockSetup { padding: 1 2; }
    """

    def compose(self) -> ComposeResult:
        yield Markdown("", id="setup-text")

    def show(self, plan: Any, minutes: int, seed: int, *, saved: bool, can_continue: bool,
             coached: bool = False) -> None:
        self.query_one("#setup-text", Markdown).update(
            setup_text(plan, minutes, seed, saved=saved, can_continue=can_continue, coached=coached))
