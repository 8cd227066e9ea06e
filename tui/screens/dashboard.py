"""`DashboardScreen`: where a candidate lands — the study plan to the interview date (days left,
today's plan and progress, readiness per topic), cards due and new, every drill with its status and
best time, drills due again, the streak, the weakest topics, and one key to each other screen.

The numbers are gathered in a thread worker (a year of history is tenths of a second of reading) and
applied on the UI thread, so coming back to the dashboard never freezes it.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Any

from rich.console import Group
from rich.markup import escape
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import DataTable, Static
from textual.worker import get_current_worker

from cards.plan.progress_summary import (
    FAILED,
    PASSED,
    DrillStatus,
    WeakTopic,
    drill_statuses,
    format_seconds,
    streak,
    streak_before,
    weakest_topics,
)
from cards.schedule.scheduler import DrillSchedule
from tui.screens.plan_settings import PlanSettingsScreen
from tui.widgets.footer import KeyFooter
from tui.widgets.plan_panel import PlanPanel
from tui.widgets.textual_guards import Header


@dataclass
class Numbers:
    """Everything the dashboard shows, read from the store in one go."""

    learning: int = 0
    review: int = 0
    new: int = 0
    waiting: int = 0
    streak: int = 0
    drills_due: list[str] = field(default_factory=list)
    statuses: dict[str, DrillStatus] = field(default_factory=dict)
    weak: list[WeakTopic] = field(default_factory=list)
    plan: Any = None  # cards.plan.interview.StudyPlan


class DashboardScreen(Screen):
    """The home screen; its numbers are refreshed every time the candidate comes back to it."""

    BINDINGS = [
        Binding("r", "open('review')", "Review", tooltip="review the cards due"),
        Binding("d", "open('drills')", "Drills", tooltip="the drill list"),
        Binding("p", "open('paste')", "Paste", tooltip="paste code and check it"),
        Binding("m", "open('mock')", "Mock", tooltip="a timed mock interview"),
        Binding("s", "open('stats')", "Stats", tooltip="statistics"),
        Binding("i", "plan_settings", "Date", tooltip="interview date and mock mode (coached or like an interview)"),
        Binding("question_mark", "app.help", "Help", key_display="?", tooltip="this help"),
        Binding("q", "app.quit", "Quit", tooltip="quit"),
    ]
    #: keys the drill table handles (listed in the help)
    HELP_KEYS = (("enter", "open the highlighted drill"),)

    def __init__(self) -> None:
        super().__init__()
        self._streak_base: tuple[date, int] | None = None  # (day, run ending the day before)
        self._drills_width: int | None = None  # the drill table's width when it was last filled
        self._numbers: Numbers | None = None  # the numbers shown, to fill the table again on a resize
        self._drills_shown: tuple[list[int], dict] | None = None  # (column widths, each drill's cells) shown

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="dash"):
            with Vertical(id="dash-side"):
                yield Static("[b]Cards[/b]\n[dim]loading…[/dim]", id="dash-cards", classes="panel")
                yield Static(id="dash-topics", classes="panel")
                yield Static(id="dash-next", classes="panel")
            with Vertical(id="dash-main"):
                yield PlanPanel(id="dash-plan")
                yield Static("Drills [dim](fix-the-bug in yellow) · enter opens one[/dim]", classes="panel-title")
                yield DataTable(id="dash-drills", cursor_type="row", zebra_stripes=True)
        yield KeyFooter()

    def on_mount(self) -> None:
        self.refresh_numbers()

    def on_resize(self) -> None:
        self.call_after_refresh(self._fit_drills)

    def _fit_drills(self) -> None:
        """Fill the drill table again, from the numbers already shown, when its width is not the one it
        was filled for (the drill column is what gives way)."""
        session = self.app.session
        if session is None or self._drills_width is None or not self.is_attached:
            return  # nothing shown yet: the first fill lays it out
        if self.query_one("#dash-drills", DataTable).size.width != self._drills_width:
            self._show_drills(session, self._numbers)

    def session_ready(self) -> None:
        """Called by the app once decks, drills and progress are loaded."""
        self.refresh_numbers()
        self.query_one("#dash-drills", DataTable).focus()

    def on_screen_resume(self) -> None:
        self.refresh_numbers()

    def refresh_numbers(self) -> None:
        """Gather the numbers off the UI thread, then show them (a newer refresh wins)."""
        session = self.app.session
        if session is None:
            return
        if session.store is None:
            self._apply(session, None)
        else:
            self._gather(session)

    @work(thread=True, exclusive=True, exit_on_error=False, group="dashboard",
          description="gather the dashboard's figures")  # not repr(args): a session walks every drill
    def _gather(self, session) -> None:
        with session.io_lock:  # the store is not closed under a reading thread
            if session.store is not None:
                self._gather_locked(session)

    def _gather_locked(self, session) -> None:
        worker = get_current_worker()
        store, scheduler = session.store, session.scheduler
        now = session.now()
        today = now.date()
        if self._streak_base is None or self._streak_base[0] != today:
            self._streak_base = (today, streak_before(store, today))
        plan = session.study_plan(forecast=False)  # sets today's new-card allowance too
        counts = scheduler.counts(now).values()

        known = {d.id for d in session.drills}
        # one vocabulary for cards and drills: the deck id (short enough for the side panel); a drill
        # counts under the deck of its first card, else under its own topic
        card_topics = {c.id: c.deck for c in session.deckset.cards}
        drill_topics = {d.id: next((card_topics[c] for c in d.cards if c in card_topics), d.topic)
                        for d in session.drills}
        numbers = Numbers(
            learning=sum(c.learning for c in counts), review=sum(c.review for c in counts),
            new=min(sum(c.unseen for c in counts), scheduler.new_remaining(now)),
            waiting=len(scheduler.queue(now)),
            streak=streak(store, today, self._streak_base[1]),
            drills_due=[d for d in DrillSchedule(store, clock=session.clock).due() if d in known],
            statuses=drill_statuses(store, [d.id for d in session.drills]),
            weak=weakest_topics(store, card_topics, drill_topics, now),
            plan=plan)
        if not worker.is_cancelled:
            self.post_message(self.Gathered(session, numbers))  # thread-safe, never blocks

    class Gathered(Message):
        def __init__(self, session, numbers: Numbers) -> None:
            super().__init__()
            self.session = session
            self.numbers = numbers

    def on_dashboard_screen_gathered(self, message: Gathered) -> None:
        self._apply(message.session, message.numbers)

    def _apply(self, session, numbers: Numbers | None) -> None:
        if not self.is_attached:
            return
        self._numbers = numbers
        self.query_one(PlanPanel).show(numbers.plan if numbers else None)
        self._show_cards(session, numbers)
        self._show_drills(session, numbers)
        self._show_next(session, numbers)

    def _show_drills(self, session, numbers: Numbers | None) -> None:
        """Show the drills in the table. Where it already lists the same drills at the same column widths
        only the cells that changed are written (the dashboard comes back after every screen, mostly to
        the same figures, and a refill has the table measure every cell again); else it is refilled."""
        table = self.query_one("#dash-drills", DataTable)
        statuses = numbers.statuses if numbers else {}
        rows = []
        for drill in session.drills:
            st = statuses.get(drill.id)
            status = st.status if st else "—"
            rows.append((drill, str(drill.target_minutes), status, format_seconds(st.best_s) if st else "—"))
        self._drills_width = table.size.width
        if not table.size.width:  # not laid out yet: fill it again once it is
            self.call_after_refresh(self._fit_drills)
        fit = _name_width(table.size.width, rows)
        longest = max([len("drill")] + [len(drill.id) for drill, *_ in rows])
        widths = [longest if fit is None else min(longest, fit)] + [
            max([len(header)] + [len(r[i]) for r in rows]) for i, header in ((1, "min"), (2, "status"), (3, "best"))]
        cells = {}
        for drill, minutes, status, best in rows:
            name = drill.id if fit is None or len(drill.id) <= fit else drill.id[:fit - 1] + "…"
            cells[drill.id] = ((name, "yellow" if drill.is_pitfall else ""), minutes,
                               (status, {PASSED: "green", FAILED: "red"}.get(status, "dim")), best)
        shown = self._drills_shown
        if shown is not None and shown[0] == widths and list(shown[1]) == list(cells) and table.row_count == len(cells):
            for key, row in cells.items():
                for header, old, new in zip(DRILL_COLUMNS, shown[1][key], row):
                    if old != new:
                        table.update_cell(key, header, _cell(new))
        else:
            self._fill_drills(table, widths, cells)
        self._drills_shown = (widths, cells)

    def _fill_drills(self, table: DataTable, widths: list[int], cells: dict) -> None:
        """Fill the drill table afresh. Every column is given its width: a table left to measure its cells
        itself does so on its next idle, and a frame drawn before that (the dashboard coming back a moment
        after help opened) would keep every column as narrow as its header until a resize."""
        row = table.cursor_row
        table.clear(columns=True)  # the columns too: a column never narrows once its content widened it
        for header, width in zip(DRILL_COLUMNS, widths):
            table.add_column(header, width=width, key=header)
        for key, row_cells in cells.items():
            table.add_row(*(_cell(c) for c in row_cells), key=key)
        if row:
            table.move_cursor(row=min(row, table.row_count - 1))

    def _show_cards(self, session, numbers: Numbers | None) -> None:
        cards = self.query_one("#dash-cards", Static)
        topics = self.query_one("#dash-topics", Static)
        if numbers is None:
            cards.update("[b]Cards[/b]\n\n[red]Progress is not available.[/red]\n"
                         f"{escape(session.store_error or '')}")
            topics.update("")
            return
        n = numbers
        cards.update("\n".join([
            "[b]Cards[/b]",
            f"Due now    [b]{n.learning + n.review}[/b]",
            f"  [dim]learning {n.learning}, review {n.review}[/dim]",
            f"New today  [b]{n.new}[/b] of {len(session.deckset.cards)}",
            f"Streak     [b]{n.streak}[/b] day{'s' if n.streak != 1 else ''}",
            "",
            "[b]Drills due[/b]",
            ", ".join(n.drills_due) if n.drills_due else "[dim]none yet[/dim]"]))
        lines = [Text.from_markup("[b]Weakest topics[/b]"), Text("deck · missed/tried · 30d", style="dim")]
        for w in n.weak:  # one line each: long deck titles end in an ellipsis rather than wrap
            lines.append(Text.assemble((f"{w.missed}/{w.tried} ", "red"), w.topic,
                                       no_wrap=True, overflow="ellipsis"))
        if not n.weak:
            lines.append(Text("nothing missed yet", style="dim"))
        topics.update(Group(*lines))

    def _show_next(self, session, numbers: Numbers | None) -> None:
        """A few lines on what to do next, so a new user knows where to start."""
        steps = []
        if numbers and numbers.waiting:
            steps.append(f"[b]r[/b] review {numbers.waiting} card{'s' if numbers.waiting != 1 else ''}")
        statuses = numbers.statuses if numbers else {}
        todo = next(iter(numbers.drills_due if numbers else []), None) or next(
            (d.id for d in session.drills
             if (st := statuses.get(d.id)) is None or st.status != PASSED), None)
        if todo:
            steps.append(f"[b]enter[/b] on [b]{todo}[/b]")
        plan = numbers.plan if numbers else None
        if numbers and not numbers.waiting and plan is not None \
                and any(t.cards_seen or t.drills_tried for t in plan.readiness):
            steps.append("[b]r[/b] then [b]a[/b] / [b]w[/b] practise ahead")
        steps.append("[b]p[/b] paste code to check")
        self.query_one("#dash-next", Static).update("[b]Next[/b]\n" + "\n".join(steps))

    def action_plan_settings(self) -> None:
        if self.app.session is not None:
            self.app.push_screen(PlanSettingsScreen(), lambda saved: saved and self.refresh_numbers())

    def action_open(self, name: str) -> None:
        self.app.open_screen(name)

    @on(DataTable.RowSelected, "#dash-drills")
    def _open_drill(self, event: DataTable.RowSelected) -> None:
        if self.app.session is None:
            return
        self.app.open_drill(event.row_key.value)


def _name_width(width: int, rows: list[tuple]) -> int | None:
    """How many characters of a drill id the table has room for at `width` (None before it is laid out),
    so that the other columns (target minutes, status, best time) always show whole: each column's
    widest cell or header, the cell padding on both sides of four columns, and a scrollbar."""
    if width <= 0:
        return None
    others = sum(max([len(header)] + [len(r[i]) for r in rows]) for i, header in ((1, "min"), (2, "status"),
                                                                                   (3, "best")))
    return max(12, width - others - 2 * 4 - 2)


DRILL_COLUMNS = ("drill", "min", "status", "best")  # the drill table's headers, each its column's key


def _cell(value):
    """A drill-table cell as the table shows it: (text, style) pairs as styled Text, strings as they are."""
    return Text(value[0], style=value[1]) if isinstance(value, tuple) else value
