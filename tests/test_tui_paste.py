"""The paste screen as a candidate uses it, at 80x24 and 100x30: how pastes count (a paste that does
not run is not an attempt), its title, the in-app wording for an unknown function, and the clear key."""
from __future__ import annotations

import re

import pytest
from textual.widgets import Select, TextArea

from drills import get_drill
from tests.terminal_sizes import SIZES, at_sizes
from tui.app import PpoDrillApp
from tui.screens.paste import COUNTING, PasteScreen
from tui.testing import FixedClock, ScriptedChecker

pytestmark = pytest.mark.anyio


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


async def test_a_paste_that_does_not_run_is_not_an_attempt():
    app = make_app()
    async with app.run_test(size=SIZES[0]) as pilot:
        screen = await open_paste(pilot)
        store = app.session.store
        async for size in at_sizes(pilot):  # the same pastes at each size: at 100x30, after 80x24's
            first = size == SIZES[0]
            attempts, state = store.attempts("gae"), store.drill_state("gae")
            assert (attempts == [] and state is None) if first else [a.passed for a in attempts] == [True]
            assert str(screen.query_one("#paste-counting").render()) == COUNTING and "not counted" in COUNTING
            broken = "import numpy as np\n\ndef compute_gae(rewards, values, dones, gamma=0.99, lam=0.95:\n    pass\n"
            await check(pilot, broken)
            assert screen.query_one("#paste-results").report.error.kind == "syntax", size
            assert store.attempts("gae") == attempts, size
            assert store.drill_state("gae") == state, size  # not rescheduled either
            await check(pilot, get_drill("gae").solution("numpy"))  # one that runs counts
            assert [a.passed for a in store.attempts("gae")] == [True] * (1 if first else 2), size


async def test_the_title_and_the_counting_line_fit():
    app = make_app()
    async with app.run_test(size=SIZES[0]) as pilot:
        screen = await open_paste(pilot)
        editor = screen.query_one("#paste-editor", TextArea)
        async for size in at_sizes(pilot):
            assert editor.border_title == "Paste, then ctrl+r", size
            assert len(editor.border_title) + 4 <= editor.size.width, size  # the whole title shows
            shot = app.export_screenshot()
            assert "then&#160;ctrl+r" in shot or "then ctrl+r" in shot, size
            counting = screen.query_one("#paste-counting")
            assert counting.region.height >= 1 and counting.region.bottom <= editor.region.y, size


async def test_an_unknown_function_offers_the_drill_list_not_a_cli_flag():
    app = make_app()
    async with app.run_test(size=SIZES[0]) as pilot:
        screen = await open_paste(pilot)
        await check(pilot, "def my_helper(x):\n    return x\n")
        async for size in at_sizes(pilot):
            body = str(screen.query_one("#paste-results").query_one("#body").render())
            assert "--drill" not in body and "drill in the list above" in body, size
            assert app.focused is screen.query_one("#paste-drill", Select), size


async def test_ctrl_n_clears_the_box_and_ctrl_z_brings_it_back():
    app = make_app()
    async with app.run_test(size=SIZES[0]) as pilot:
        screen = await open_paste(pilot)
        editor = screen.query_one("#paste-editor", TextArea)
        async for size in at_sizes(pilot):  # the same keys at each size
            editor.load_text("x = 1\ny = 2\n")
            editor.focus()
            await pilot.press("ctrl+n")
            assert editor.text == "" and app.focused is editor, size
            await pilot.press("ctrl+z")
            assert editor.text == "x = 1\ny = 2\n", size


def _long_answer(chars: int) -> str:
    code = get_drill("gae").solution("numpy")
    filler = "".join(f"# a note the candidate left in the file, line {i}\n" for i in range(chars // 40))
    return code + filler


async def test_a_long_file_loads_as_plain_text_and_is_checked(tmp_path):
    """A file far over the highlighting limit loads at once as plain text (highlighted, such a file
    froze the app) and is checked whole; clearing the box brings highlighting back."""
    from tui.widgets.code_editor import HIGHLIGHT_LIMIT

    code = _long_answer(300_000)
    path = tmp_path / "long.py"
    path.write_text(code)
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_paste(pilot)
        editor = screen.query_one("#paste-editor", TextArea)
        assert editor.language == "python"
        await pilot.press("ctrl+o", *str(path), "enter")
        await pilot.pause()
        assert editor.text == code and editor.language is None
        assert any(f"Over {HIGHLIGHT_LIMIT:,} characters" in n.message for n in app._notifications)
        await pilot.press("ctrl+r")
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert screen.query_one("#paste-results").report.drill == "gae"  # checked (a scripted checker)
        await pilot.press("ctrl+n")
        await pilot.pause()
        assert editor.text == "" and editor.language == "python"


async def test_a_long_paste_is_inserted_as_plain_text():
    from textual.events import Paste

    from tui.widgets.code_editor import HIGHLIGHT_LIMIT

    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_paste(pilot)
        editor = screen.query_one("#paste-editor", TextArea)
        short = get_drill("gae").solution("numpy")
        app.post_message(Paste(short))  # as the terminal driver delivers it
        await pilot.pause()
        assert editor.text == short and editor.language == "python"
        long = _long_answer(2 * HIGHLIGHT_LIMIT)
        app.post_message(Paste(long))
        await pilot.pause()
        assert editor.text == short + long and editor.language is None
        assert editor.cursor_location == editor.document.end  # after the paste, as any paste leaves it


class _NanChecker(ScriptedChecker):
    """Fails every answer with a counterexample whose rows are all NaN, long enough to need scrolling."""

    def check(self, source, drill=None, framework=None, seed=0):
        from checker.report import CheckResult, Counterexample, Report

        nan = float("nan")
        checks = [CheckResult(f"c{i}", f"check number {i} about the advantages", i % 3 != 0,
                              "" if i % 3 else "Your advantages differ from the reference here.")
                  for i in range(12)]
        cx = Counterexample("c0", "edge: all values NaN", {"rewards": [0.5, 3.25, -1.0, 2.0],
                                                            "values": [nan, nan, nan, nan, nan]},
                            {"advantages": [nan, nan, nan, nan]}, {"advantages": [0.5, 3.25, -1.0, 2.0]},
                            where="index 0")
        return Report("gae", "numpy", False, checks=checks, counterexample=cx, elapsed_ms=5.0)


def _panel_text(panel) -> str:
    """Everything the results panel holds (scrolled out of view too), as plain text."""
    import os

    from rich.console import Console

    console = Console(width=panel.size.width or 60, record=True, file=open(os.devnull, "w"))
    console.print(panel.query_one("#verdict").content)
    console.print(panel.query_one("#body").content)
    return re.sub("[\u2500-\u257f]", " ", console.export_text())  # without the table's lines


async def test_counterexample_rows_of_nan_are_shown_and_the_results_scroll_from_the_keyboard():
    app = PpoDrillApp(clock=FixedClock(), checker_factory=_NanChecker, fuzz=False)
    app.animation_level = "none"
    async with app.run_test(size=SIZES[0]) as pilot:
        screen = await open_paste(pilot)
        await check(pilot, get_drill("gae").starter("numpy"))
        panel = screen.query_one("#paste-results")
        editor = screen.query_one("#paste-editor", TextArea)
        async for size in at_sizes(pilot):  # the results at each size, scrolled with the same keys
            text = " ".join(_panel_text(panel).split())
            assert "values [nan, nan, nan, nan, nan]" in text, size
            assert "expected advantages [nan, nan, nan, nan]" in text, size
            assert "got advantages [0.5, 3.25, -1.0, 2.0]" in text, size
            assert panel.max_scroll_y > 0, size  # the counterexample is below the pane
            assert editor.has_focus and panel.scroll_y == 0, size
            await pilot.press("alt+down")  # pages the results, the cursor stays in the editor
            await pilot.pause()
            assert panel.scroll_y > 0 and editor.has_focus, size
            await pilot.press("alt+up")
            await pilot.pause()
            assert panel.scroll_y == 0, size
            await pilot.press("f2")  # the keyboard to the results: arrows and page keys scroll them
            assert panel.has_focus, size
            await pilot.press("end")
            await pilot.pause()
            assert panel.scroll_y == panel.max_scroll_y, size
            await pilot.press("home", "f2")
            assert editor.has_focus and panel.scroll_y == 0, size
