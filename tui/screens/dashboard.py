"""`DashboardScreen`: where a candidate lands — cards due and new, every drill with its status and
best time, drills due again, the streak, the weakest topics, and one key to each other screen."""
from __future__ import annotations

from rich.console import Group
from rich.markup import escape
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Static

from tui.summary import FAILED, PASSED, drill_statuses, format_seconds, streak, weakest_topics


class DashboardScreen(Screen):
    """The home screen; refreshed every time the candidate comes back to it."""

    BINDINGS = [
        Binding("r", "open('review')", "Review"),
        Binding("d", "open('drills')", "Drills"),
        Binding("p", "open('paste')", "Paste"),
        Binding("m", "open('mock')", "Mock"),
        Binding("s", "open('stats')", "Stats"),
        Binding("question_mark", "app.help", "Help", key_display="?"),
        Binding("q", "app.quit", "Quit"),
    ]

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="dash"):
            with Vertical(id="dash-side"):
                yield Static(id="dash-cards", classes="panel")
                yield Static(id="dash-topics", classes="panel")
                yield Static(id="dash-next", classes="panel")
            with Vertical(id="dash-main"):
                yield Static("Drills [dim](fix-the-bug in yellow) · enter opens one[/dim]", classes="panel-title")
                yield DataTable(id="dash-drills", cursor_type="row", zebra_stripes=True)
        yield Footer(compact=True)

    def on_mount(self) -> None:
        table = self.query_one("#dash-drills", DataTable)
        table.add_columns("drill", "min", "status", "best")
        if self.app.session is None:
            self.query_one("#dash-cards", Static).update("[b]Cards[/b]\n[dim]loading…[/dim]")
        else:
            self.refresh_numbers()

    def session_ready(self) -> None:
        """Called by the app once decks, drills and progress are loaded."""
        self.refresh_numbers()
        self.query_one("#dash-drills", DataTable).focus()

    def on_screen_resume(self) -> None:
        self.refresh_numbers()

    def refresh_numbers(self) -> None:
        """Re-read everything from the store (cheap: one pass over recent reviews and attempts)."""
        session = self.app.session
        if session is None:
            return
        self._show_cards(session)
        table = self.query_one("#dash-drills", DataTable)
        row = table.cursor_row
        table.clear()
        ids = [d.id for d in session.drills]
        statuses = drill_statuses(session.store, ids) if session.store else {}
        for drill in session.drills:
            st = statuses.get(drill.id)
            status = st.status if st else "—"
            style = {PASSED: "green", FAILED: "red"}.get(status, "dim")
            name = Text(drill.id, style="yellow" if drill.is_pitfall else "")
            table.add_row(name, str(drill.target_minutes), Text(status, style=style),
                          format_seconds(st.best_s) if st else "—", key=drill.id)
        if row:
            table.move_cursor(row=min(row, table.row_count - 1))
        self._show_next(session, statuses, self._drills_due(session))

    def _show_next(self, session, statuses, due_drills) -> None:
        """One line on what to do next, so a new user knows where to start."""
        steps = []
        if session.store is not None:
            waiting = len(session.scheduler.queue())
            if waiting:
                steps.append(f"[b]r[/b] review {waiting} card{'s' if waiting != 1 else ''}")
        todo = next(iter(due_drills), None) or next(
            (d.id for d in session.drills
             if (st := statuses.get(d.id)) is None or st.status != PASSED), None)
        if todo:
            steps.append(f"[b]enter[/b] on [b]{todo}[/b]")
        steps.append("[b]p[/b] paste code to check")
        self.query_one("#dash-next", Static).update("[b]Next[/b]\n" + "\n".join(steps))

    def _drills_due(self, session) -> list[str]:
        if session.store is None:
            return []
        from cards.scheduler import DrillSchedule

        known = {d.id for d in session.drills}
        return [d for d in DrillSchedule(session.store, clock=session.clock).due() if d in known]

    def _show_cards(self, session) -> None:
        cards = self.query_one("#dash-cards", Static)
        topics = self.query_one("#dash-topics", Static)
        if session.store is None:
            cards.update("[b]Cards[/b]\n\n[red]Progress is not available.[/red]\n"
                         f"{escape(session.store_error)}")
            topics.update("")
            return
        now = session.now()
        counts = session.scheduler.counts(now).values()
        learning = sum(c.learning for c in counts)
        review = sum(c.review for c in counts)
        new = min(sum(c.unseen for c in counts), session.scheduler.new_remaining(now))
        days = streak(session.store, now.date())
        due_drills = self._drills_due(session)
        lines = ["[b]Cards[/b]",
                 f"Due now    [b]{learning + review}[/b]",
                 f"  [dim]learning {learning}, review {review}[/dim]",
                 f"New today  [b]{new}[/b] of {len(session.deckset.cards)}",
                 f"Streak     [b]{days}[/b] day{'s' if days != 1 else ''}",
                 "",
                 "[b]Drills due[/b]",
                 ", ".join(due_drills) if due_drills else "[dim]none yet[/dim]"]
        cards.update("\n".join(lines))
        deck_titles = {c.id: session.deckset.by_deck[c.deck].display_title(session.language)
                       for c in session.deckset.cards}
        weak = weakest_topics(session.store, deck_titles, {d.id: d.topic for d in session.drills}, now)
        lines = [Text.from_markup("[b]Weakest topics[/b] [dim](missed/tried, 30 days)[/dim]")]
        for w in weak:  # one line each: long deck titles end in an ellipsis rather than wrap
            lines.append(Text.assemble((f"{w.missed}/{w.tried} ", "red"), w.topic,
                                       no_wrap=True, overflow="ellipsis"))
        if not weak:
            lines.append(Text("nothing missed yet", style="dim"))
        topics.update(Group(*lines))

    def action_open(self, name: str) -> None:
        self.app.open_screen(name)

    @on(DataTable.RowSelected, "#dash-drills")
    def _open_drill(self, event: DataTable.RowSelected) -> None:
        from tui.screens.workspace import WorkspaceScreen

        if self.app.session is None:
            return
        self.app.push_screen(WorkspaceScreen(self.app.session.drill(event.row_key.value)))
