"""`DashboardScreen`: where a candidate lands — cards due and new, every drill with its status and
best time, drills due again, the streak, the weakest topics, and one key to each other screen."""
from __future__ import annotations

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
        Binding("p", "open('paste')", "Paste & check"),
        Binding("m", "open('mock')", "Mock"),
        Binding("s", "open('stats')", "Stats"),
        Binding("question_mark", "app.help", "Help", show=False),
        Binding("q", "app.quit", "Quit"),
    ]

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="dash"):
            with Vertical(id="dash-side"):
                yield Static(id="dash-cards", classes="panel")
                yield Static(id="dash-topics", classes="panel")
            with Vertical(id="dash-main"):
                yield Static("Drills — enter opens one", classes="panel-title")
                yield DataTable(id="dash-drills", cursor_type="row", zebra_stripes=True)
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one("#dash-drills", DataTable)
        table.add_columns("drill", "min", "status", "best", "due")
        self.refresh_numbers()

    def on_screen_resume(self) -> None:
        self.refresh_numbers()

    def refresh_numbers(self) -> None:
        """Re-read everything from the store (cheap: one pass over reviews and attempts)."""
        session = self.app.session
        self._show_cards(session)
        table = self.query_one("#dash-drills", DataTable)
        row = table.cursor_row
        table.clear()
        ids = [d.id for d in session.drills]
        statuses = drill_statuses(session.store, ids) if session.store else {}
        due = set(self._drills_due(session))
        for drill in session.drills:
            st = statuses.get(drill.id)
            status = st.status if st else "—"
            style = {PASSED: "green", FAILED: "red"}.get(status, "dim")
            name = Text(drill.id)
            if drill.is_pitfall:
                name.append(" fix", style="yellow")
            table.add_row(name, str(drill.target_minutes), Text(status, style=style),
                          format_seconds(st.best_s) if st else "—",
                          Text("due", style="bold yellow") if drill.id in due else "", key=drill.id)
        if row:
            table.move_cursor(row=min(row, table.row_count - 1))

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
                         f"{session.store_error}")
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
                 f"Due now    [b]{learning + review}[/b] · learn {learning} · review {review}",
                 f"New today  [b]{new}[/b]  of {len(session.deckset.cards)} cards",
                 f"Streak     [b]{days}[/b] day{'s' if days != 1 else ''}",
                 "",
                 "[b]Drills due[/b]",
                 ", ".join(due_drills) if due_drills else "[dim]none — pass a drill to space it[/dim]"]
        cards.update("\n".join(lines))
        deck_titles = {c.id: session.deckset.by_deck[c.deck].display_title(session.language)
                       for c in session.deckset.cards}
        weak = weakest_topics(session.store, deck_titles, {d.id: d.topic for d in session.drills}, now)
        body = "\n".join(f"{w.topic}  [red]{w.missed}[/red]/{w.tried} missed" for w in weak)
        topics.update("[b]Weakest topics[/b] (30 days)\n"
                      + (body or "[dim]nothing missed yet[/dim]"))

    def action_open(self, name: str) -> None:
        self.app.open_screen(name)

    @on(DataTable.RowSelected, "#dash-drills")
    def _open_drill(self, event: DataTable.RowSelected) -> None:
        from tui.screens.workspace import WorkspaceScreen

        self.app.push_screen(WorkspaceScreen(self.app.session.drill(event.row_key.value)))
