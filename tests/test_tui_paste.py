"""The paste screen as a candidate uses it, at 80x24 and 100x30: how pastes count (a paste that does
not run is not an attempt), its title, the in-app wording for an unknown function, and the clear key."""
from __future__ import annotations

import pytest
from textual.widgets import Select, TextArea

from drills import get_drill
from tui.app import PpoDrillApp
from tui.screens.paste import COUNTING, PasteScreen
from tui.testing import FixedClock, ScriptedChecker

pytestmark = pytest.mark.anyio
SIZES = [(80, 24), (100, 30)]


@pytest.fixture
def anyio_backend():
    return "asyncio"


def make_app():
    app = PpoDrillApp(clock=FixedClock(), checker_factory=ScriptedChecker, fuzz=False)
    app.animation_level = "none"
    return app


async def open_paste(pilot):
    app = pilot.app
    for _ in range(500):
        if app.session is not None:
            break
        await pilot.pause(0.01)
    await pilot.press("p")
    await pilot.pause()
    assert isinstance(app.screen, PasteScreen)
    return app.screen


async def check(pilot, code: str):
    pilot.app.screen.query_one("#paste-editor", TextArea).load_text(code)
    await pilot.press("ctrl+r")
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


@pytest.mark.parametrize("size", SIZES)
async def test_a_paste_that_does_not_run_is_not_an_attempt(size):
    app = make_app()
    async with app.run_test(size=size) as pilot:
        screen = await open_paste(pilot)
        assert str(screen.query_one("#paste-counting").render()) == COUNTING and "not counted" in COUNTING
        broken = "import numpy as np\n\ndef compute_gae(rewards, values, dones, gamma=0.99, lam=0.95:\n    pass\n"
        await check(pilot, broken)
        assert screen.query_one("#paste-results").report.error["kind"] == "syntax"
        assert app.session.store.attempts("gae") == []
        assert app.session.store.drill_state("gae") is None  # not rescheduled either
        await check(pilot, get_drill("gae").solution("numpy"))  # one that runs counts
        assert [a.passed for a in app.session.store.attempts("gae")] == [True]


@pytest.mark.parametrize("size", SIZES)
async def test_the_title_and_the_counting_line_fit(size):
    app = make_app()
    async with app.run_test(size=size) as pilot:
        screen = await open_paste(pilot)
        editor = screen.query_one("#paste-editor", TextArea)
        assert editor.border_title == "Paste, then ctrl+r"
        assert len(editor.border_title) + 4 <= editor.size.width  # the whole title shows
        shot = app.export_screenshot()
        assert "then&#160;ctrl+r" in shot or "then ctrl+r" in shot
        counting = screen.query_one("#paste-counting")
        assert counting.region.height >= 1 and counting.region.bottom <= editor.region.y


@pytest.mark.parametrize("size", SIZES)
async def test_an_unknown_function_offers_the_drill_list_not_a_cli_flag(size):
    app = make_app()
    async with app.run_test(size=size) as pilot:
        screen = await open_paste(pilot)
        await check(pilot, "def my_helper(x):\n    return x\n")
        body = str(screen.query_one("#paste-results").query_one("#body").render())
        assert "--drill" not in body and "drill in the list above" in body
        assert app.focused is screen.query_one("#paste-drill", Select)


@pytest.mark.parametrize("size", SIZES)
async def test_ctrl_n_clears_the_box_and_ctrl_z_brings_it_back(size):
    app = make_app()
    async with app.run_test(size=size) as pilot:
        screen = await open_paste(pilot)
        editor = screen.query_one("#paste-editor", TextArea)
        editor.load_text("x = 1\ny = 2\n")
        editor.focus()
        await pilot.press("ctrl+n")
        assert editor.text == "" and app.focused is editor
        await pilot.press("ctrl+z")
        assert editor.text == "x = 1\ny = 2\n"
