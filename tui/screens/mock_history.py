"""`MockHistoryScreen`: every finished mock interview, newest first (date, seed, length, score); enter
reopens its scorecard with everything revealed, `c` compares it side by side with another run of the
same seed, `n` on a scorecard queues its "study next" into today's plan.

What it shows comes from `cards.plan.mock_review` (history, the revealed items, the comparison) and
`cards.plan.mock` (the scorecard text); this module is the wiring."""
from __future__ import annotations

from datetime import datetime, timezone

from rich.table import Table
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import ContentSwitcher, DataTable, Static

from cards.plan.interview import queue_study_next
from cards.plan.mock import format_scorecard, score_session
from cards.plan.mock_review import (
    compare_runs,
    load_finished,
    mock_history,
    other_run,
    review_items,
    study_next_items,
)
from cards.progress.store import StoreError
from tui.widgets.footer import KeyFooter
from tui.widgets.mock_clock import mmss
from tui.widgets.mock_scorecard import MockScorecard
from tui.widgets.textual_guards import Header


def comparison_table(comp) -> Table:
    """Two runs of a seed as a table: one row per item, each run's outcome and time."""
    table = Table(title=f"Seed {comp.seed}, {comp.minutes} min: two runs side by side", expand=True,
                  title_justify="left")
    table.add_column("#", justify="right", no_wrap=True)
    table.add_column("item", overflow="ellipsis", no_wrap=True, ratio=2)
    table.add_column("budget", justify="right", no_wrap=True)
    for run in (comp.a, comp.b):
        table.add_column(f"{run.finished_at:%m-%d %H:%M}\n{run.score:.1f}", no_wrap=True, ratio=1)
    good = {"passed": "green", "knew": "green", "partly": "yellow"}
    for n, kind, ref, budget, out_a, t_a, out_b, t_b in comp.rows:
        cells = [Text(f"{o} {mmss(t) if t is not None else '-'}", style=good.get(o, "red"))
                 for o, t in ((out_a, t_a), (out_b, t_b))]
        table.add_row(str(n), f"{kind[0]} {ref}", mmss(budget), *cells)
    return table


class MockHistoryScreen(Screen):
    """Past mocks; their scorecards; two runs of a seed compared."""

    DEFAULT_CSS = """
    MockHistoryScreen #history-table { height: 1fr; }
    MockHistoryScreen #history-compare { padding: 0 1; }
    MockHistoryScreen #history-empty { padding: 1 2; }
    """

    BINDINGS = [
        Binding("enter", "open", "Scorecard", show=True, tooltip="reopen the highlighted mock's scorecard, "
                "everything revealed"),
        Binding("c", "compare", "Compare runs", tooltip="compare with another run of the same seed"),
        Binding("r", "replay", "Replay seed", tooltip="a new mock of the same seed and length, from its start "
                "panel (runs of one seed can then be compared)"),
        Binding("n", "queue_study_next", "Study next → today",
                tooltip="on a scorecard: put its \"study next\" on today's plan"),
        Binding("escape", "back", "Back", tooltip="back (to the list, then out)"),
    ]

    def __init__(self, store) -> None:
        super().__init__()
        self.store = store
        self.history = mock_history(store)
        self.open_id: str | None = None

    def compose(self) -> ComposeResult:
        yield Header()
        with ContentSwitcher(initial="history-list", id="history-body"):
            with VerticalScroll(id="history-list"):
                yield Static("", id="history-empty")
                yield DataTable(id="history-table", cursor_type="row", zebra_stripes=True)
            yield MockScorecard(id="history-scorecard")
            with VerticalScroll(id="history-compare-view"):
                yield Static("", id="history-compare")
        yield KeyFooter()

    def on_mount(self) -> None:
        table = self.query_one("#history-table", DataTable)
        table.add_columns("finished", "seed", "min", "score", "correct")
        for m in self.history:
            table.add_row(f"{m.finished_at:%Y-%m-%d %H:%M}", str(m.seed), str(m.minutes), f"{m.score:.1f}",
                          f"{m.correctness:.0f}%", key=m.mock_id)
        self.query_one("#history-empty", Static).update(
            "Past mocks, newest first: [b]enter[/b] reopens a scorecard, [b]c[/b] compares with another "
            "run of the same seed." if self.history else "No finished mock yet: [b]m[/b] on the dashboard.")
        table.focus()

    @property
    def view(self) -> str:
        return self.query_one("#history-body", ContentSwitcher).current or "history-list"

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        if action == "open":
            return self.view == "history-list" and bool(self.history)
        if action in ("compare", "replay"):
            return self.view in ("history-list", "history-scorecard") and bool(self.history)
        if action == "queue_study_next":
            return self.view == "history-scorecard"
        return True

    def _selected(self) -> str | None:
        if self.view == "history-scorecard":
            return self.open_id
        table = self.query_one("#history-table", DataTable)
        if not self.history or table.cursor_row is None:
            return None
        return self.history[min(table.cursor_row, len(self.history) - 1)].mock_id

    def _switch(self, view: str) -> None:
        self.query_one("#history-body", ContentSwitcher).current = view
        self.refresh_bindings()

    @on(DataTable.RowSelected, "#history-table")
    def _row_selected(self) -> None:
        self.action_open()

    def action_open(self) -> None:
        mock_id = self._selected()
        if mock_id is None:
            return
        try:
            session = load_finished(self.store, mock_id)
        except (KeyError, ValueError, StoreError) as exc:
            self.notify(str(exc), title="Cannot open that mock", severity="error", timeout=20)
            return
        lang = self.store.get_setting("language", "en")
        deckset = getattr(getattr(self.app, "session", None), "deckset", None)
        self.query_one(MockScorecard).show(format_scorecard(score_session(session)),
                                           review_items(session, deckset if deckset and deckset.cards else None,
                                                        lang if lang in ("en", "zh") else "en"))
        self.open_id = mock_id
        self._switch("history-scorecard")
        self.query_one(MockScorecard).focus()

    def action_compare(self) -> None:
        mock_id = self._selected()
        if mock_id is None:
            return
        other = other_run(self.store, mock_id)
        if other is None:
            seed = next(m.seed for m in self.history if m.mock_id == mock_id)
            self.notify(f"No other finished run of seed {seed} yet: press r to replay it, then compare.")
            return
        try:
            comp = compare_runs(self.store, other, mock_id)
        except (KeyError, ValueError, StoreError) as exc:
            self.notify(str(exc), title="Cannot compare", severity="error", timeout=20)
            return
        self.query_one("#history-compare", Static).update(comparison_table(comp))
        self._switch("history-compare-view")

    def action_replay(self) -> None:
        """A fresh mock of the selected one's plan (same seed, length and drills), on its start panel in
        place of the mock screen this history was opened from (one not running)."""
        mock_id = self._selected()
        if mock_id is None:
            return
        try:
            plan = load_finished(self.store, mock_id).plan
        except (KeyError, ValueError, StoreError) as exc:
            self.notify(str(exc), title="Cannot replay that mock", severity="error", timeout=20)
            return
        self.app.pop_screen()
        self.app.open_mock(plan, in_place_of_idle=True)

    def action_queue_study_next(self) -> None:
        if self.open_id is None:
            return
        cards, drills = study_next_items(load_finished(self.store, self.open_id))
        if not cards and not drills:
            self.notify("Nothing to study next: every item was answered right.")
            return
        clock = getattr(self.app, "clock", None)

        queue_study_next(self.store, clock() if clock else datetime.now(timezone.utc), cards, drills)
        self.notify(f"On today's plan: {len(cards)} cards and {len(drills)} drills.")

    def action_back(self) -> None:
        if self.view != "history-list":
            self._switch("history-list")
            self.query_one("#history-table", DataTable).focus()
        else:
            self.app.pop_screen()
