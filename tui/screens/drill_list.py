"""`DrillListScreen`: every drill, filtered by topic, difficulty, framework and status; pitfall
(fix-the-bug) drills are marked. Enter opens the drill workspace."""
from __future__ import annotations

from rich.markup import escape
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import DataTable, Select, Static

from cards.plan.progress_summary import FAILED, NEVER, PASSED, drill_statuses, format_seconds
from tui.widgets.footer import KeyFooter
from tui.widgets.textual_guards import Header

FILTERS = ("topic", "difficulty", "framework", "status")


class DrillListScreen(Screen):
    """The drill table under four filters; the detail line says what the highlighted drill is."""

    BINDINGS = [
        Binding("escape", "app.pop_screen", "Back", tooltip="back"),
        Binding("f", "focus_filters", "Filters", tooltip="go to the filters (tab moves between them)"),
        Binding("c", "clear_filters", "Clear filters", tooltip="clear the filters"),
    ]
    #: keys the drill table handles (listed in the help)
    HELP_KEYS = (("enter", "open the highlighted drill"),)

    def compose(self) -> ComposeResult:
        drills = self.app.session.drills
        options = {
            "topic": sorted({d.topic for d in drills}),
            "difficulty": [x for x in ("easy", "medium", "hard") if any(d.difficulty == x for d in drills)],
            "framework": sorted({f for d in drills for f in d.frameworks}),
            "status": [NEVER, FAILED, PASSED],
        }
        yield Header()
        with Horizontal(id="drill-filters"):
            for name in FILTERS:
                yield Select([(v, v) for v in options[name]], prompt=f"any {name}", id=f"filter-{name}",
                             compact=True)
        yield DataTable(id="drill-table", cursor_type="row", zebra_stripes=True)
        yield Static(id="drill-detail")
        yield KeyFooter()

    def on_mount(self) -> None:
        table = self.query_one("#drill-table", DataTable)
        table.add_columns("drill", "kind", "level", "min", "status", "best")
        self.refill()
        table.focus()

    def on_screen_resume(self) -> None:
        self.refill()

    def filters(self) -> dict[str, str]:
        chosen = {}
        for name in FILTERS:
            value = self.query_one(f"#filter-{name}", Select).value
            if value is not Select.NULL:
                chosen[name] = value
        return chosen

    def visible(self) -> list:
        """The drills that pass the filters, in track order."""
        session = self.app.session
        chosen = self.filters()
        statuses = drill_statuses(session.store, [d.id for d in session.drills]) if session.store else {}
        self._statuses = statuses
        result = []
        for d in session.drills:
            status = statuses[d.id].status if d.id in statuses else NEVER
            if (chosen.get("topic", d.topic) == d.topic
                    and chosen.get("difficulty", d.difficulty) == d.difficulty
                    and chosen.get("framework", d.frameworks[0]) in d.frameworks
                    and chosen.get("status", status) == status):
                result.append(d)
        return result

    def refill(self) -> None:
        table = self.query_one("#drill-table", DataTable)
        table.clear()
        rows = self.visible()
        for d in rows:
            st = self._statuses.get(d.id)
            status = st.status if st else NEVER
            style = {PASSED: "green", FAILED: "red"}.get(status, "dim")
            kind = (Text("fix-the-bug", style="yellow") if d.is_pitfall
                    else Text("write tests", style="cyan") if d.is_test
                    else Text("read the run", style="magenta") if d.is_run else Text("write"))
            table.add_row(d.id, kind, d.difficulty, str(d.target_minutes),
                          Text(status, style=style), format_seconds(st.best_s) if st else "—", key=d.id)
        if not rows:
            self.query_one("#drill-detail", Static).update("No drill matches these filters (c clears them).")
        else:
            self._detail(rows[0].id)

    def _detail(self, drill_id: str) -> None:
        d = self.app.session.drill(drill_id)
        self.query_one("#drill-detail", Static).update(
            f"[b]{escape(d.title)}[/b]\n{d.topic} · {'/'.join(d.frameworks)} · target {d.target_minutes} min"
            f" · [dim]enter opens it[/dim]")

    @on(Select.Changed)
    def _filter_changed(self) -> None:
        self.refill()

    @on(DataTable.RowHighlighted, "#drill-table")
    def _highlighted(self, event: DataTable.RowHighlighted) -> None:
        if event.row_key is not None and event.row_key.value:
            self._detail(event.row_key.value)

    @on(DataTable.RowSelected, "#drill-table")
    def _open(self, event: DataTable.RowSelected) -> None:
        self.app.open_drill(event.row_key.value, self.filters().get("framework"))

    def action_focus_filters(self) -> None:
        self.query_one("#filter-topic", Select).focus()

    def action_clear_filters(self) -> None:
        for name in FILTERS:
            self.query_one(f"#filter-{name}", Select).clear()
        self.query_one("#drill-table", DataTable).focus()
