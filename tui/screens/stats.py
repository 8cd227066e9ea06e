"""`StatsScreen`: where a candidate stands (dashboard key `s`) — reviews per day and retention, the
30-day due forecast, drill solve times against target, mock scores over time, the pitfall profile
with a key to review a mistake's card, and readiness for every topic (the study plan's predicted
recall on the interview day, weakest first; the dashboard has room for the weakest few).

The numbers are `cards.plan.stats.summary()` (the same object `ppo-drill stats --json` prints),
computed in a thread worker so a large history never freezes the screen; plots are
textual-plotext, tables Textual's DataTable.
"""
from __future__ import annotations

import contextlib
from datetime import datetime, timezone
from typing import Any

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import DataTable, Static, TabbedContent, TabPane
from textual_plotext import PlotextPlot

from cards.plan.stats import summary
from tui.widgets.footer import KeyFooter
from tui.widgets.table_fit import clip, fit_columns
from tui.widgets.textual_guards import Header


def _minutes(seconds: float | None) -> str:
    return "-" if seconds is None else f"{seconds / 60:.1f} min"


#: Line colours of the drill-times plot, named as both plotext and Rich know them: the table below the
#: plot shows each drill's name in its line's colour (a legend inside the plot would cover the data).
LINE_COLORS = ("red", "green", "blue", "yellow", "magenta", "cyan")


def _fill(table: DataTable, headers: tuple[str, ...], rows: list[tuple[str, ...]], flexible: set[int],
          width: int) -> list[int]:
    """Add `headers` as columns fitted to `width` (the `flexible` ones give way); their widths."""
    natural = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(headers)]
    widths = fit_columns(width, natural, flexible)
    for header, w in zip(headers, widths):
        table.add_column(header, width=w)
    return widths


def count_ticks(plt, highest: int | float) -> None:
    """Whole-number y ticks for a plot of counts (plotext would label 8.3 reviews)."""
    top = max(1, int(highest))
    step = max(1, -(-top // 4))
    plt.yticks(list(range(0, top + step, step)))
    plt.ylim(0, top + step if top % step else top)


class StatsScreen(Screen):
    """Plots and tables over `cards.plan.stats.summary()`."""

    DEFAULT_CSS = """
    StatsScreen #stats-head { height: auto; padding: 0 1; background: $boost; }
    StatsScreen #stats-tabs { height: 1fr; }
    StatsScreen TabPane { height: 1fr; padding: 0; }
    StatsScreen PlotextPlot { height: 1fr; min-height: 8; }
    StatsScreen DataTable { height: auto; max-height: 12; }
    StatsScreen #pitfall-table { height: 1fr; max-height: 100%; }
    StatsScreen #readiness-table { height: 1fr; max-height: 100%; }
    """

    BINDINGS = [
        Binding("r", "reload", "Refresh", tooltip="refresh"),
        Binding("escape", "back", "Back", tooltip="back"),
    ]
    #: keys the tabs and tables handle (listed in the help)
    HELP_KEYS = (("left,right", "the next tab (when the tabs have focus)"),
                 ("enter", "pitfall profile: review the highlighted mistake's card"))

    def __init__(self, days: int = 30) -> None:
        super().__init__()
        self.days = days
        self.data: dict | None = None

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("Loading statistics...", id="stats-head")
        with TabbedContent(id="stats-tabs"):
            with TabPane("Reviews", id="tab-reviews"):
                yield PlotextPlot(id="plot-reviews")
                yield PlotextPlot(id="plot-retention")
            with TabPane("Due forecast", id="tab-forecast"):
                yield PlotextPlot(id="plot-forecast")
            with TabPane("Drill times", id="tab-drills"):
                with Vertical():
                    yield PlotextPlot(id="plot-drills")
                    yield DataTable(id="drill-table", cursor_type="row", zebra_stripes=True)
            with TabPane("Mocks", id="tab-mocks"):
                with Vertical():
                    yield PlotextPlot(id="plot-mocks")
                    yield DataTable(id="mock-table", cursor_type="row", zebra_stripes=True)
            with TabPane("Readiness", id="tab-readiness"):
                yield Static(id="readiness-help")
                yield DataTable(id="readiness-table", cursor_type="row", zebra_stripes=True)
            with TabPane("Pitfalls", id="tab-pitfalls"):
                yield Static("Your most frequent named mistakes. enter reviews the selected "
                             "mistake's card now.", id="pitfall-help")
                yield DataTable(id="pitfall-table", cursor_type="row", zebra_stripes=True)
        yield KeyFooter(compact=False)

    def on_mount(self) -> None:
        self.action_reload()

    def action_reload(self) -> None:
        session = getattr(self.app, "session", None)
        if session is None or session.store is None:
            error = getattr(session, "store_error", None) or "no progress store is open"
            self.query_one("#stats-head", Static).update(f"Progress is not available: {error}")
            return
        self._compute(session)

    @work(thread=True, exclusive=True, exit_on_error=False, group="stats",
          description="compute the statistics")  # not repr(args): a session walks every drill
    def _compute(self, session: Any) -> None:
        now = session.now() if hasattr(session, "now") else datetime.now(timezone.utc)
        lock = getattr(session, "io_lock", None) or contextlib.nullcontext()
        try:
            with lock:  # the store is not closed under a reading thread (quitting mid-computation)
                if session.store is None:
                    return
                data = summary(session.store, now, self.days, drills=session.drills or None,
                               deckset=session.deckset if session.deckset.cards else None)
        except Exception as exc:  # noqa: BLE001 - shown, never raised in the app
            self.post_message(self.Computed(None, f"Could not compute the statistics: {exc}"))
            return
        self.post_message(self.Computed(data, None))

    class Computed(Message):
        """The worker's result, delivered on the UI thread (post_message never blocks a quitting app)."""

        def __init__(self, data: dict | None, error: str | None) -> None:
            super().__init__()
            self.data = data
            self.error = error

    def on_stats_screen_computed(self, message: "StatsScreen.Computed") -> None:
        if message.data is None:
            self.query_one("#stats-head", Static).update(message.error or "")
        else:
            self.show(message.data)

    # -- showing ---------------------------------------------------------------------------

    def show(self, data: dict) -> None:
        """Fill every plot and table from a `summary()` object."""
        self.data = data
        retention = data["retention"]["overall"]
        forecast = data["due_forecast"]
        self.query_one("#stats-head", Static).update(
            f"Last {data['days']} days: {data['reviews_total']} reviews · retention "
            f"{'-' if retention is None else f'{100 * retention:.0f}%'} · due today "
            f"{forecast[0]['due'] if forecast else 0}, next 7 days {sum(f['due'] for f in forecast[:7])} · "
            f"drills due {len(data['drills_due'])} · mocks {len(data['mocks'])}")
        self._plot_reviews(data)
        self._plot_forecast(forecast)
        self._drills(data["drill_times"])
        self._mocks(data["mocks"])
        self._pitfalls(data["pitfalls"])
        self._readiness(data.get("plan"))

    def _readiness(self, plan: dict | None) -> None:
        """Every topic on one line each, fitted to the screen's width: the topic and its weakest items
        give way (cut with …), the figures always show whole."""
        table = self.query_one("#readiness-table", DataTable)
        table.clear(columns=True)
        self._readiness_width = self.size.width
        if not plan:
            return
        when = "on the interview day" if plan["mode"] in ("countdown", "interview-day") else "now"
        self.query_one("#readiness-help", Static).update(
            f"Predicted recall {when} (FSRS), weakest first: {100 * plan['readiness']['overall']:.0f}% overall. "
            "A drill is mastered once passed again on a later day in another form.")
        rows = []
        for t in plan["readiness"]["topics"]:
            rows.append((f"{100 * t['readiness']:.0f}%", t["title"], f"{t['cards_seen']}/{t['cards']}",
                         f"{t['drills_tried']}/{t['drills']}" if t["drills"] else "-",
                         f"{t.get('drills_mastered', 0)}/{t['drills']}" if t["drills"] else "-",
                         ", ".join(t["weakest"]), t["readiness"], t["topic"]))
        headers = ("ready", "topic", "cards", "drills", "mastered", "weakest")
        natural = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(headers)]
        widths = fit_columns(self.size.width, natural, flexible={1, 5}, minimum=12)
        for header, width in zip(headers, widths):
            table.add_column(header, width=width)
        for ready, title, cards, drills, mastered, weakest, value, topic in rows:
            style = "red" if value < 0.5 else "yellow" if value < 0.9 else "green"
            table.add_row(Text(ready, style=style), clip(title, widths[1]), cards, drills, mastered,
                          clip(weakest, widths[5]), key=topic)

    def on_resize(self) -> None:
        """The tables are fitted to the screen's width: fill them again for a new one."""
        if self.data is not None and self.size.width != getattr(self, "_readiness_width", None):
            self.show(self.data)

    def _plot_reviews(self, data: dict) -> None:
        days = data["reviews_per_day"]
        labels = [d["day"][5:] for d in days]
        plot = self.query_one("#plot-reviews", PlotextPlot)
        plt = plot.plt
        plt.clear_data()
        plt.title("Reviews per day (yours and the checker's Again)")
        plt.stacked_bar(labels, [[d["user"] for d in days], [d["checker"] for d in days]],
                        labels=["you", "checker"])
        count_ticks(plt, max([d["user"] + d["checker"] for d in days] or [0]))
        plt.xticks(list(range(1, len(labels) + 1, 7)), labels[::7])
        plot.refresh()
        plot = self.query_one("#plot-retention", PlotextPlot)
        plt = plot.plt
        plt.clear_data()
        points = [(i + 1, 100 * p["rate"]) for i, p in enumerate(data["retention"]["daily"])
                  if p["rate"] is not None]
        if points:
            plt.title("Retention per day: % of review-card ratings not Again")
            plt.plot([x for x, _ in points], [y for _, y in points], marker="dot")
        else:
            plt.title("Retention per day: no ratings of review-state cards yet")
        plt.ylim(0, 100)
        plt.xticks(list(range(1, len(labels) + 1, 7)), labels[::7])
        plot.refresh()

    def _plot_forecast(self, forecast: list[dict]) -> None:
        plot = self.query_one("#plot-forecast", PlotextPlot)
        plt = plot.plt
        plt.clear_data()
        plt.title("Cards falling due, next 30 days (overdue count today)")
        labels = [f["day"][5:] for f in forecast]
        plt.bar(labels, [f["due"] for f in forecast])
        count_ticks(plt, max([f["due"] for f in forecast] or [0]))
        plt.xticks(list(range(1, len(labels) + 1, 7)), labels[::7])
        plot.refresh()

    def _drills(self, times: list[dict]) -> None:
        plot = self.query_one("#plot-drills", PlotextPlot)
        plt = plot.plt
        plt.clear_data()
        plt.title("Solve time / target per attempt (1 = on target; colours as in the table)")
        longest = 1
        colors: dict[str, str] = {}
        for t in times:
            if t["target_s"]:
                ys = [a["elapsed_s"] / t["target_s"] for a in t["attempts"]]
                longest = max(longest, len(ys))
                colors[t["drill"]] = LINE_COLORS[len(colors) % len(LINE_COLORS)]
                plt.plot(list(range(1, len(ys) + 1)), ys, marker="dot", color=colors[t["drill"]])
        plt.hline(1.0)
        highest = max([a["elapsed_s"] / t["target_s"] for t in times if t["target_s"] for a in t["attempts"]]
                      or [1.0])
        step = 0.5 if highest <= 4 else float(-(-int(highest) // 4))
        top = step * (int(max(highest, 1.0) / step) + 1)
        plt.yticks([round(step * i, 2) for i in range(int(top / step) + 1)])  # 1 (on target) is a tick
        plt.ylim(0, top)
        plt.xlim(1, max(2, longest))
        plt.xticks(list(range(1, max(2, longest) + 1)))
        plot.refresh()
        table = self.query_one("#drill-table", DataTable)
        table.clear(columns=True)
        rows = []
        for t in times:
            last = t["attempts"][-1]["elapsed_s"] if t["attempts"] else None
            within = sum(1 for a in t["attempts"] if a["within_target"])
            rows.append((t["drill"], _minutes(t["target_s"]), _minutes(t["best_s"]), _minutes(last),
                         f"{t['passes']}/{len(t['attempts'])}", str(within),
                         f"{t.get('checks_passed', 0)}/{t.get('checks', 0)}"))
        # timed passed / passes within the target / all checks passed; the drill id gives way at 80 columns
        widths = _fill(table, ("drill", "target", "best pass", "last", "passed", "in target", "checks"), rows,
                       {0}, self.size.width)
        for row in rows:
            table.add_row(Text(clip(row[0], widths[0]), style=colors.get(row[0], "")), *row[1:], key=row[0])

    def _mocks(self, mocks: list[dict]) -> None:
        plot = self.query_one("#plot-mocks", PlotextPlot)
        plt = plot.plt
        plt.clear_data()
        plt.title("Mock interview scores (0-100)")
        if mocks:
            xs = list(range(1, len(mocks) + 1))
            plt.plot(xs, [m["score"] for m in mocks], marker="dot", label="score")
            plt.plot(xs, [m["correctness"] for m in mocks], marker="dot", label="correctness %")
            plt.xticks(xs)
        else:
            plt.title("Mock interview scores: none finished yet (dashboard key m)")
        plt.ylim(0, 100)
        plot.refresh()
        table = self.query_one("#mock-table", DataTable)
        table.clear(columns=True)
        rows = [(m["finished_at"][:16].replace("T", " "), f"{m['score']:.1f}", f"{m['correctness']:.1f}%",
                 str(m["minutes"]), str(m["seed"])) for m in mocks]
        _fill(table, ("finished", "score", "correctness", "minutes", "seed"), rows, {0}, self.size.width)
        for row, m in zip(rows, mocks):
            table.add_row(*row, key=m["mock_id"])

    def _pitfalls(self, pitfalls: list[dict]) -> None:
        table = self.query_one("#pitfall-table", DataTable)
        table.clear(columns=True)
        rows = [(str(p["count"]), p["title"], p["last_seen"][:10], p["card"] or "-", ", ".join(p["drills"]))
                for p in pitfalls]
        widths = _fill(table, ("count", "mistake", "last seen", "card", "drills"), rows, {1, 3, 4}, self.size.width)
        for row, p in zip(rows, pitfalls):
            table.add_row(*(clip(cell, w) for cell, w in zip(row, widths)), key=p["mistake"])
        if not pitfalls:
            self.query_one("#pitfall-help", Static).update(
                "No mistakes named yet: the checker names them as you run drills.")

    # -- keys ------------------------------------------------------------------------------

    def action_back(self) -> None:
        self.app.pop_screen()

    @on(DataTable.RowSelected, "#pitfall-table")
    def _pitfall_selected(self, event: DataTable.RowSelected) -> None:
        self._review(event.row_key.value)

    def action_review_card(self) -> None:
        table = self.query_one("#pitfall-table", DataTable)
        if table.row_count:
            self._review(table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value)

    def _review(self, mistake_id: str | None) -> None:
        entry = next((p for p in (self.data or {}).get("pitfalls", []) if p["mistake"] == mistake_id), None)
        session = getattr(self.app, "session", None)
        if entry is None or not entry["card"] or session is None or entry["card"] not in session.deckset.by_id:
            self.notify("This mistake has no card to review.")
            return

        self.app.open_cards([entry["card"]])
