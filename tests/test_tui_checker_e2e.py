"""End to end with the real warm checker process (torch in the worker, never in the app): a right
answer passes, a catalogued mistake is named and a test file is graded, in the drill workspace; one app
and one checker process for all of it (the process's start is most of the time)."""
from __future__ import annotations

import time

import pytest
from textual.widgets import DataTable

from drills import get_drill
from tui.app import PpoDrillApp
from tui.testing import FixedClock

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend():
    return "asyncio"


async def _wait_for_report(pilot, panel, timeout=240.0):  # the worker starts torch: slow on a loaded machine
    deadline = time.monotonic() + timeout
    while panel.has_class("-running") and time.monotonic() < deadline:
        await pilot.pause(0.05)
    await pilot.pause()
    return panel.report


async def test_real_checker_passes_the_model_answer_names_a_mistake_and_grades_a_test_file():
    """One app and the warm checker process it starts (torch loads there once): in value-loss's workspace the
    model answer passes and a catalogued mistake is named; then, back in the drill list, test-value-loss's
    starter tests are graded as missing known bugs and its model answer passes."""
    drill = get_drill("value-loss")
    mistake = next(m for m in drill.mistakes if m.source("numpy"))
    tests_drill = get_drill("test-value-loss")
    app = PpoDrillApp(clock=FixedClock(), fuzz=False)  # default factory: checker.service.CheckerClient
    app.animation_level = "none"
    async with app.run_test(size=(100, 30)) as pilot:
        while app.session is None:  # loaded right after the first frame
            await pilot.pause(0.01)
        await pilot.press("d")
        table = app.screen.query_one("#drill-table", DataTable)
        table.move_cursor(row=table.get_row_index(drill.id))
        await pilot.press("enter")
        await pilot.pause()
        ws = app.screen
        ws.editor.load_text(drill.solution("numpy"))
        await pilot.press("ctrl+r")
        report = await _wait_for_report(pilot, ws.results)
        assert report is not None and report.passed, ws.results.query_one("#verdict").render()
        ws.editor.load_text(mistake.source("numpy"))
        await pilot.press("ctrl+r")
        report = await _wait_for_report(pilot, ws.results)
        assert report is not None and not report.passed
        assert mistake.id in report.mistake_ids
        assert [a.passed for a in app.session.store.attempts(drill.id)] == [True, False]

        await pilot.press("escape")  # the drill list again
        table = app.screen.query_one("#drill-table", DataTable)
        table.move_cursor(row=table.get_row_index(tests_drill.id))
        await pilot.press("enter")
        await pilot.pause()
        ws = app.screen
        assert ws.drill.id == tests_drill.id
        assert "from solution import ppo_value_loss" in ws.editor.text  # the starter tests
        await pilot.press("ctrl+r")
        report = await _wait_for_report(pilot, ws.results)
        assert report is not None and not report.passed and report.tests.caught < report.tests.known
        ws.editor.load_text(tests_drill.solution("numpy"))
        await pilot.press("ctrl+r")
        report = await _wait_for_report(pilot, ws.results)
        assert report is not None and report.passed, ws.results.query_one("#verdict").render()
        assert [a.passed for a in app.session.store.attempts(tests_drill.id)] == [False, True]
