"""`PlanPanel`: the dashboard's study plan: days left to the interview, today's plan with its progress,
and readiness per topic (predicted recall on the day), weakest first; or, without a date, how to set
one.

It shows a `cards.plan.interview.StudyPlan` and computes nothing: the plan, the forecast and the
readiness figures are the same ones `ppo-drill plan` and `ppo-drill stats --json` print."""
from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.text import Text
from textual.widgets import Static

from cards.plan.interview import format_minutes

TOPIC_LINES = 5


def _pct(x: float) -> str:
    return f"{100 * x:.0f}%"


def plan_renderable(plan: Any, topic_lines: int = TOPIC_LINES) -> Group:
    """The panel's lines for `plan` (None: progress is not available)."""
    if plan is None:
        return Group(Text("Plan: progress is not available", style="dim"))
    if plan.mode == "none":
        return Group(Text.assemble(("Plan ", "bold"), "no interview date · ", ("i", "bold"),
                                   " sets one and the plan counts down to it", no_wrap=True,
                                   overflow="ellipsis"))
    done, target = plan.progress
    if plan.mode == "countdown":  # short enough for 80 columns with today's progress and time after it
        head = f"Interview in {plan.days_left} day{'s' if plan.days_left != 1 else ''}"
    elif plan.mode == "interview-day":
        head = "Interview today: nothing new, a light review"
    else:
        head = f"Interview was {plan.interview.isoformat()} · plain spaced review"

    planned, left = plan.minutes_today
    time_left = f" · {format_minutes(left, short=True)} to go" if planned else ""
    lines = [Text.assemble((head, "bold"), f" · today {done}/{target}{time_left}", no_wrap=True,
                           overflow="ellipsis")]
    lines.append(_tasks_line(plan.tasks))
    if plan.cannot_promise:
        lines.append(Text("! Too little time: ppo-drill plan lists what to cut",
                          style="bold red", no_wrap=True, overflow="ellipsis"))
        lines.append(Text(f"  {plan.cannot_promise[0]}", style="red", no_wrap=True, overflow="ellipsis"))
        topic_lines -= 1
    label = "on the day" if plan.mode in ("countdown", "interview-day") else "now"
    lines.append(Text.assemble(("Readiness ", "bold"), f"{label} {_pct(plan.overall)} · weakest first (s: all)",
                               no_wrap=True, overflow="ellipsis"))
    for t in plan.readiness[:topic_lines]:
        style = "red" if t.readiness < 0.5 else "yellow" if t.readiness < 0.9 else "green"
        lines.append(Text.assemble((f"{_pct(t.readiness):>4} ", style), t.title, no_wrap=True,
                                   overflow="ellipsis"))
    return Group(*lines)


def _tasks_line(tasks) -> Text:
    """Today's tasks on one line, so the readiness below keeps its room: the counted ones (new cards,
    reviews) with their progress, the mock, the study-next cards, then the drills as done/planned with
    the names of those left (last: what a narrow screen cuts)."""
    parts: list[tuple[str, str] | str] = []

    def mark(done: bool) -> tuple[str, str]:
        return ("✓ ", "green") if done else ("· ", "yellow")

    for t in tasks:
        if t.kind in ("new", "reviews"):
            parts += [mark(t.complete), f"{t.label} {t.done}/{t.target}  "]
    for t in tasks:
        if t.kind == "mock":
            parts += [mark(t.complete), "mock interview  "]
    cards = [t for t in tasks if t.kind == "card"]
    if cards:
        done = sum(t.complete for t in cards)
        parts += [mark(done == len(cards)), f"study next {done}/{len(cards)}  "]
    drills = [t for t in tasks if t.kind == "drill"]
    if drills:
        done = sum(t.complete for t in drills)
        left = [t.ref or t.label for t in drills if not t.complete]
        parts += [mark(not left), f"drills {done}/{len(drills)}" + (f": {', '.join(left)}" if left else "") + "  "]
    return Text.assemble(*parts, no_wrap=True, overflow="ellipsis")


class PlanPanel(Static):
    """The study plan at the top of the dashboard."""

    DEFAULT_CSS = """
    PlanPanel { height: auto; max-height: 10; padding: 0 1; border-bottom: hkey $foreground 20%; }
    """

    def show(self, plan: Any) -> None:
        """Redraw from `plan` (a `StudyPlan`, or None without progress)."""
        self.plan = plan
        self.update(plan_renderable(plan))
