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

TOPIC_LINES = 4


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
    if plan.mode == "countdown":
        head = (f"Interview {plan.interview.isoformat()} · {plan.days_left} day"
                f"{'s' if plan.days_left != 1 else ''} left")
    elif plan.mode == "interview-day":
        head = "Interview today: nothing new, a light review"
    else:
        head = f"Interview was {plan.interview.isoformat()} · plain spaced review"
    lines = [Text.assemble((head, "bold"), f" · today {done}/{target}", no_wrap=True, overflow="ellipsis")]
    parts: list[tuple[str, str] | str] = []
    for t in plan.tasks:
        mark = ("✓ ", "green") if t.complete else ("· ", "yellow")
        amount = f" {t.done}/{t.target}" if t.kind in ("new", "reviews") else ""
        label = t.ref if t.kind in ("drill", "card") and t.ref else t.label
        parts += [mark, f"{label}{amount}  "]
    if parts:
        lines.append(Text.assemble(*parts, overflow="fold"))
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


class PlanPanel(Static):
    """The study plan at the top of the dashboard."""

    DEFAULT_CSS = """
    PlanPanel { height: auto; max-height: 10; padding: 0 1; border-bottom: hkey $foreground 20%; }
    """

    def show(self, plan: Any) -> None:
        """Redraw from `plan` (a `StudyPlan`, or None without progress)."""
        self.plan = plan
        self.update(plan_renderable(plan))
