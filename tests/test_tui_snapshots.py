"""SVG snapshots of the main screens at 100x30 (dashboard, review, drill list, workspace, results),
stored in tests/snapshots/. Deterministic: temp data folder, fixed clock, scripted checker, no
cursor blink. Update after a deliberate change with `pytest tests/test_tui_snapshots.py
--snapshot-update` and look at the SVGs before committing them."""
from __future__ import annotations

from pathlib import Path

import pytest
from pytest_textual_snapshot import SVGImageExtension
from textual._doc import take_svg_screenshot
from textual.widgets import DataTable, TextArea

from drills import get_drill
from tui.app import PpoDrillApp
from tui.testing import FixedClock, ScriptedChecker

SIZE = (100, 30)


class SnapshotsHere(SVGImageExtension):
    """Keep the SVGs in tests/snapshots/<test module>/ rather than syrupy's __snapshots__."""

    @classmethod
    def dirname(cls, *, test_location) -> str:
        return str(Path(test_location.filepath).parent / "snapshots" / test_location.basename)


@pytest.fixture
def svg(snapshot):
    return snapshot.use_extension(SnapshotsHere)


def app() -> PpoDrillApp:
    app = PpoDrillApp(clock=FixedClock(), checker_factory=ScriptedChecker, fuzz=False)
    app.animation_level = "none"  # no tab-underline frame caught mid-slide
    return app


def no_blink(pilot) -> None:
    for area in pilot.app.screen.query(TextArea):
        area.cursor_blink = False


async def _open_drill(pilot, drill_id: str) -> None:
    await pilot.press("d")
    table = pilot.app.screen.query_one("#drill-table", DataTable)
    table.move_cursor(row=table.get_row_index(drill_id))
    await pilot.press("enter")
    await pilot.pause()
    no_blink(pilot)


def test_dashboard(svg):
    assert svg == take_svg_screenshot(app(), terminal_size=SIZE)


def test_review_revealed(svg):
    assert svg == take_svg_screenshot(app(), press=["r", "space"], terminal_size=SIZE)


def test_drill_list(svg):
    assert svg == take_svg_screenshot(app(), press=["d"], terminal_size=SIZE)


def test_workspace(svg):
    async def run_before(pilot):
        await _open_drill(pilot, "gae")

    assert svg == take_svg_screenshot(app(), terminal_size=SIZE, run_before=run_before)


def test_results_with_named_mistake(svg):
    async def run_before(pilot):
        await _open_drill(pilot, "gae")
        mistake = next(m for m in get_drill("gae").mistakes if m.id == "gae-missing-gamma")
        pilot.app.screen.editor.load_text(mistake.source("numpy"))
        await pilot.press("ctrl+r")
        await pilot.pause()
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        pilot.app.clear_notifications()
        await pilot.pause()

    assert svg == take_svg_screenshot(app(), terminal_size=SIZE, run_before=run_before)
