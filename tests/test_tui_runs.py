"""A read-the-run drill in the app at 80x24: the drill list offers it, the workspace shows the run's log
with the causes to choose from in the editor, and a check grades the sheet and records the attempt."""
from __future__ import annotations

import pytest
from textual.widgets import DataTable

from drills import get_drill
from drills.runlog import LETTERS
from tui.app import PpoDrillApp
from tui.screens.workspace import WorkspaceScreen
from tui.testing import FixedClock, ScriptedChecker

pytestmark = pytest.mark.anyio
SIZE = (80, 24)


@pytest.fixture
def anyio_backend():
    return "asyncio"


def _sheet(drill, cause: str, why: str) -> str:
    return drill.starter("run").replace("cause: \n", f"cause: {LETTERS[drill.choices.index(cause)]}\n") \
        .replace("why: \n", f"why: {why}\n")


async def test_read_a_run_choose_wrong_then_right():
    checker = ScriptedChecker()
    app = PpoDrillApp(clock=FixedClock(), checker_factory=lambda: checker, fuzz=False)
    app.animation_level = "none"
    drill = get_drill("run-01")
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(500):
            if app.session is not None:
                break
            await pilot.pause(0.01)
        await pilot.press("d")
        table = app.screen.query_one("#drill-table", DataTable)
        row = table.get_row_index(drill.id)
        assert "read the run" in str(table.get_row_at(row)[1])
        table.move_cursor(row=row)
        await pilot.press("enter")
        await pilot.pause()
        ws = app.screen
        assert isinstance(ws, WorkspaceScreen) and ws.framework == "run"
        text = ws.editor.text
        assert "approx_kl" in text and "clip_frac" in text and "cause: " in text
        assert all(drill.causes[c].text in text for c in drill.choices)

        await pilot.press("ctrl+r")  # nothing chosen yet
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert not ws.results.report.passed and ws.results.report.diagnoses == []

        wrong = next(c for c in drill.choices if c != drill.answer)
        ws.editor.load_text(_sheet(drill, wrong, "approx_kl is 0"))
        await pilot.press("ctrl+r")
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert ws.results.report.mistake_ids == [wrong]
        assert ws.results.cards == [drill.causes[wrong].card]

        ws.editor.load_text(_sheet(drill, drill.answer, "clip_frac and approx_kl are exactly 0 in every epoch"))
        await pilot.press("ctrl+r")
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert ws.results.report.passed
        attempts = app.session.store.attempts(drill.id)
        assert [a.passed for a in attempts] == [False, False, True]


async def test_a_mock_draws_a_run_and_grades_its_sheet(tmp_path):
    from cards.plan.mock import plan_mock
    from tui.screens.mock import MockScreen

    plan = plan_mock(9, 45)
    assert plan.items[0].ref.startswith("run-") and plan.items[0].framework == "run"
    drill = get_drill(plan.items[0].ref)
    checker = ScriptedChecker()
    app = PpoDrillApp(data_dir=tmp_path / "data", clock=FixedClock(), checker_factory=lambda: checker, fuzz=False)
    app.animation_level = "none"
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(500):
            if app.session is not None:
                break
            await pilot.pause(0.01)
        screen = MockScreen(plan)
        await app.push_screen(screen)
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        editor = screen.query_one("#drill-editor")
        assert "cause: " in editor.text and "approx_kl" in editor.text
        editor.load_text(_sheet(drill, drill.answer, drill.giveaway["line"]))
        await pilot.press("ctrl+r")
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert screen.mock.current.kind == "question", "the sheet passed and the mock moved on"
