"""The mock and stats screens under `App.run_test()`: a short mock driven with the Pilot (a
scripted checker and a fixed clock), the `ppo-drill mock` entry, and the stats screen's plots."""
from __future__ import annotations

import asyncio
import functools
from datetime import timedelta

from textual.app import App

from cards.plan.mock import plan_mock
from cards.progress.store import StoreError, open_store
from drills import get_drill
from tui.app import PpoDrillApp
from tui.mock_command import mock_app
from tui.screens.mock import MockScreen
from tui.testing import FixedClock, ScriptedChecker
from tui.widgets.results import ResultsPanel

SIZE = (120, 40)


def _sync(fn):
    """Run an async Pilot test on a fresh event loop (no asyncio pytest plugin is installed)."""
    @functools.wraps(fn)
    def run(*args, **kwargs):
        return asyncio.run(fn(*args, **kwargs))

    return run


def _app(tmp_path, clock, checker, **kwargs):
    return PpoDrillApp(data_dir=tmp_path / "data", clock=clock, checker_factory=lambda: checker,
                       fuzz=False, **kwargs)


async def _settle(app, pilot):
    await app.workers.wait_for_complete()
    await pilot.pause()


@_sync
async def test_pilot_short_mock(tmp_path):
    clock, checker = FixedClock(), ScriptedChecker()
    app = _app(tmp_path, clock, checker)
    plan = plan_mock(11, 45)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = MockScreen(plan)
        await app.push_screen(screen)
        await pilot.pause()
        assert screen.mock is None and "not started" in str(screen.query_one("#mock-clock").render())
        await pilot.press("enter")
        await pilot.pause()
        s = screen.mock
        assert s is not None and s.status == "running" and s.current.kind == "drill"
        drill_item = s.current
        drill = get_drill(drill_item.ref)

        # a wrong answer: a catalogued mistake is named, the item stays open
        wrong = next(m for m in drill.mistakes if m.source(drill_item.framework) is not None)
        screen.query_one("#drill-editor").load_text(wrong.source(drill_item.framework))
        clock.advance(seconds=60)
        await pilot.press("ctrl+r")
        await _settle(app, pilot)
        assert s.current is drill_item and s.results[-1].runs == 1
        panel = screen.query_one("#drill-results", ResultsPanel)
        assert panel.report is not None and panel.report.mistake_ids == [wrong.id]

        # the model answer passes and moves on to the first question
        screen.query_one("#drill-editor").load_text(drill.solution(drill_item.framework))
        clock.advance(seconds=120)
        await pilot.press("ctrl+r")
        await _settle(app, pilot)
        assert s.results[0].outcome == "passed" and s.results[0].time_s == 180
        assert s.current.kind == "question"
        assert screen.query_one("#mock-body").current == "question-view"

        # grading needs the answer revealed first
        question = s.current
        await pilot.press("1")
        assert s.current is question
        await pilot.press("t", "m", "i", "n", "1")  # typed: "min1" (keys go to the answer box)
        assert s.current is question
        await pilot.press("ctrl+r", "2")
        await pilot.pause()
        assert s.results[1].outcome == "partly" and s.results[1].answer == "min1"

        # a recorded pause hides the work
        clock.advance(seconds=30)
        await pilot.press("ctrl+b")
        await pilot.pause()
        assert s.paused and screen.query_one("#mock-body").current == "paused-view"
        clock.advance(seconds=90)
        await pilot.press("ctrl+b")
        await pilot.pause()
        assert not s.paused

        await pilot.press("ctrl+n")  # skip the question
        await pilot.pause()
        assert s.results[2].outcome == "unanswered"
        await pilot.press("ctrl+f", "y")
        await pilot.pause()
        assert s.finished and screen.query_one("#mock-body").current == "scorecard-view"
        text = screen.query_one("#scorecard-view").text  # the scorecard as the scorer wrote it
        assert "Score" in text and "Paused 1 time(s), 1:30" in text

    with open_store(tmp_path / "data") as store:
        [row] = store.mocks()
        assert row.seed == 11 and row.finished_at is not None
        assert row.payload["scorecard"]["paused_s"] == 90
        attempts = store.attempts()
        assert [(a.drill_id, a.passed) for a in attempts] == [(drill_item.ref, False), (drill_item.ref, True)]
        assert attempts[0].mistakes == [wrong.id]
        sources = {(r.card_id, r.source) for r in store.reviews()}
        assert (wrong.card, "checker") in sources and (question.ref, "user") in sources


@_sync
async def test_leaving_and_continuing_a_mock(tmp_path):
    clock, checker = FixedClock(), ScriptedChecker()
    app = _app(tmp_path, clock, checker)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        first = MockScreen(plan_mock(4, 30))
        await app.push_screen(first)
        await pilot.press("enter")
        await pilot.pause()
        item = first.mock.current
        first.query_one("#drill-editor").load_text("# my half-written answer\n")
        await pilot.press("ctrl+r")  # a run of the checks that fails
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        shown = first.query_one("#drill-view").results.report
        assert shown is not None and not shown.passed
        clock.advance(seconds=100)
        await pilot.press("escape")  # leave the screen; the mock stays saved
        await pilot.pause()
        assert not isinstance(app.screen, MockScreen)
        clock.advance(seconds=600)
        again = MockScreen(seed=99)
        await app.push_screen(again)
        await pilot.pause()
        await pilot.press("c")
        await pilot.pause()
        s = again.mock
        assert s.mock_id == first.mock.mock_id and s.current == item
        assert s.elapsed_s() == 100 and s.pauses[-1].reason == "closed"
        assert again.query_one("#drill-editor").text == "# my half-written answer\n"
        back = again.query_one("#drill-view").results.report  # the last run is shown again
        assert back is not None and back.to_json() == shown.to_json()

        def refuse(**kwargs):
            raise StoreError("cannot write to progress.sqlite3: disk I/O error")

        s.store.record_mock = refuse  # the disk fails: the step is refused with a message, no crash
        await pilot.press("ctrl+b")
        await pilot.pause()
        assert app.is_running and isinstance(app.screen, MockScreen)
        assert any("not saved" in n.message for n in app._notifications)


@_sync
async def test_dashboard_key_and_mock_command_open_the_mock_screen(tmp_path):
    clock, checker = FixedClock(), ScriptedChecker()
    app = _app(tmp_path, clock, checker)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("m")
        await pilot.pause()
        assert isinstance(app.screen, MockScreen) and app.screen.mock is None
        await pilot.press("escape", "s")  # stats on an empty history: empty plots, no crash
        await _settle(app, pilot)
        assert app.screen.data["reviews_total"] == 0 and app.screen.data["mocks"] == []
        assert "No mistakes named yet" in str(app.screen.query_one("#pitfall-help").render())
    plan = plan_mock(5, 20)
    app = mock_app(plan, data_dir=tmp_path / "data", clock=clock, checker_factory=lambda: checker,
                   fuzz=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.pause()
        assert isinstance(app.screen, MockScreen) and app.screen.plan == plan


class _BareHost(App):
    """A host app with none of the main app's session: the screen opens its own store."""

    def __init__(self, clock) -> None:
        super().__init__()
        self.clock = clock


@_sync
async def test_time_up_ends_on_the_scorecard_in_a_bare_host(tmp_path):
    clock = FixedClock()
    app = _BareHost(clock)
    async with app.run_test(size=SIZE) as pilot:
        screen = MockScreen(plan_mock(6, 15), tick_s=0.05)
        await app.push_screen(screen)
        await pilot.press("enter")
        clock.advance(seconds=15 * 60 + 1)
        for _ in range(1000):  # the next tick (every 0.05 s here) finds the time up
            if screen.mock.finished:
                break
            await pilot.pause(0.01)
        await pilot.pause()
        assert screen.mock.finish_reason == "time-up"
        assert screen.mock.elapsed_s() == 15 * 60
        assert screen.query_one("#mock-body").current == "scorecard-view"
    with open_store() as store:  # PPO_DRILL_HOME: the test's private data folder
        [row] = store.mocks()
        assert row.payload["finish_reason"] == "time-up"


def _seed_history(data_dir, clock):
    """Attempts with named mistakes, a finished mock and some reviews, at fixed times."""
    from cards.decks.loader import load_decks
    from cards.plan.mock import start_mock
    from cards.schedule.scheduler import Scheduler
    from cards.schedule.training import record_check

    with open_store(data_dir) as store:
        t = clock()
        sch = Scheduler(store, load_decks(), clock=clock, fuzz=False)
        sch.review("gae-td-error", 3, now=t - timedelta(days=3))
        for i, (passed, mistakes) in enumerate([(False, [("gae-forward-scan", "pitfall-gae-direction")]),
                                                (False, [("gae-forward-scan", "pitfall-gae-direction")]),
                                                (True, [])]):
            when = t - timedelta(days=2 - i)
            record_check(store, drill_id="gae", framework="numpy", passed=passed, mistakes=mistakes,
                         started_at=when - timedelta(minutes=8), finished_at=when, elapsed_s=480 + 60 * i,
                         target_minutes=10, fuzz=False)
        s = start_mock(plan_mock(3, 20), store, clock=clock, record_training=False)
        s.submit_drill(True)
        s.finish()


@_sync
async def test_stats_screen_shows_the_numbers(tmp_path):
    from textual.widgets import DataTable

    from tui.screens.review import ReviewScreen
    from tui.screens.stats import StatsScreen

    clock, checker = FixedClock(), ScriptedChecker()
    _seed_history(tmp_path / "data", clock)
    app = _app(tmp_path, clock, checker)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("s")
        await _settle(app, pilot)
        screen = app.screen
        assert isinstance(screen, StatsScreen) and screen.data is not None
        assert screen.data["pitfalls"][0]["mistake"] == "gae-forward-scan"
        assert screen.data["pitfalls"][0]["count"] == 2
        head = str(screen.query_one("#stats-head").render())
        assert "reviews" in head and "mocks 1" in head
        drills = screen.query_one("#drill-table", DataTable)
        assert drills.row_count == 1 and drills.get_row("gae")[2] == "10.0 min"  # the one pass: 600 s
        assert screen.query_one("#mock-table", DataTable).row_count == 1
        pitfalls = screen.query_one("#pitfall-table", DataTable)
        assert pitfalls.row_count == 1
        readiness = screen.query_one("#readiness-table", DataTable)  # every topic, weakest first
        topics = screen.data["plan"]["readiness"]["topics"]
        assert readiness.row_count == len(app.session.deckset.decks) == len(topics)
        for i, t in enumerate(topics):  # each title whole, or cut to the screen with its mark
            shown = str(readiness.get_row_at(i)[1])
            assert shown == t["title"] or (shown.endswith("…") and t["title"].startswith(shown[:-1])), shown
        assert [t["readiness"] for t in topics] == sorted(t["readiness"] for t in topics)
        screen.query_one("#stats-tabs").active = "tab-pitfalls"
        await pilot.pause()
        pitfalls.focus()
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ReviewScreen)
