"""The drill workspace as a new user meets it, at 80x24 and 100x30: ctrl+o with an editor that does
not exist or cannot start gives a message and the app back, widening the editor shows every line from
its start, Backspace in an indent removes one level, and ctrl+g always asks before the model answer."""
from __future__ import annotations

from contextlib import contextmanager

import pytest

from tests.terminal_sizes import SIZES, at_sizes
from tui.app import PpoDrillApp
from tui.screens.code_view import CodeScreen
from tui.screens.confirm import ConfirmScreen
from tui.screens.workspace import WorkspaceScreen
from tui.testing import FixedClock, ScriptedChecker

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend():
    return "asyncio"


def make_app():
    app = PpoDrillApp(clock=FixedClock(), checker_factory=ScriptedChecker, fuzz=False)
    app.animation_level = "none"
    return app


async def open_drill(pilot, drill_id: str = "gae") -> WorkspaceScreen:
    app = pilot.app
    for _ in range(500):
        if app.session is not None:
            break
        await pilot.pause(0.01)
    screen = WorkspaceScreen(app.session.drill(drill_id))
    await app.push_screen(screen)
    await pilot.pause()
    return screen


def suspend_like_textual(app, log: list[str]):
    """`App.suspend` as Textual writes it: the resume runs after the `with` body, so an exception
    raised inside the body skips it (in a terminal: a blank screen that takes no keys)."""

    @contextmanager
    def suspend():
        log.append("suspended")
        yield
        log.append("resumed")

    app.suspend = suspend


async def test_an_editor_that_does_not_exist_is_a_message_and_the_app_stays(monkeypatch):
    monkeypatch.delenv("VISUAL", raising=False)
    monkeypatch.setenv("EDITOR", "/nonexistent/ed")
    app = make_app()
    async with app.run_test(size=SIZES[0]) as pilot:
        screen = await open_drill(pilot)
        async for size in at_sizes(pilot):  # the same keys at each size
            log: list[str] = []
            suspend_like_textual(app, log)
            await pilot.press("ctrl+o")
            await pilot.pause()
            assert log == [], size  # the terminal was never handed over
            assert any("/nonexistent/ed was not found" in n.message for n in app._notifications), size
            assert app.screen is screen, size
            xs = screen.editor.text.count("x")
            await pilot.press("x")  # keys still reach the editor
            assert "x" in screen.editor.text and screen.editor.text.count("x") == xs + 1, size
            app.clear_notifications()  # the next size's message is its own


async def test_an_editor_that_fails_to_start_still_gives_the_app_back(tmp_path, monkeypatch):
    broken = tmp_path / "ed"
    broken.write_text("#!/nonexistent/interpreter\n")  # found on disk, but exec fails
    broken.chmod(0o755)
    monkeypatch.delenv("VISUAL", raising=False)
    monkeypatch.setenv("EDITOR", str(broken))
    app = make_app()
    async with app.run_test(size=SIZES[0]) as pilot:
        screen = await open_drill(pilot)
        async for size in at_sizes(pilot):  # the same keys at each size
            log: list[str] = []
            suspend_like_textual(app, log)
            await pilot.press("ctrl+o")
            await pilot.pause()
            assert log == ["suspended", "resumed"], size
            assert any("could not be started" in n.message for n in app._notifications), size
            assert app.screen is screen, size
            app.clear_notifications()  # the next size's message is its own


async def test_the_editor_edits_the_answer_and_it_is_reloaded(tmp_path, monkeypatch):
    script = tmp_path / "ed"
    script.write_text("#!/bin/sh\necho '# edited outside' >> \"$1\"\n")
    script.chmod(0o755)
    monkeypatch.delenv("VISUAL", raising=False)
    monkeypatch.setenv("EDITOR", str(script))
    app = make_app()
    async with app.run_test(size=SIZES[0]) as pilot:
        screen = await open_drill(pilot)
        async for size in at_sizes(pilot):  # the same keys at each size
            before = screen.editor.text
            log: list[str] = []
            suspend_like_textual(app, log)
            await pilot.press("ctrl+o")
            await pilot.pause()
            assert log == ["suspended", "resumed"], size
            assert screen.editor.text.rstrip().endswith("# edited outside"), size
            assert screen.editor.text.count("# edited outside") == before.count("# edited outside") + 1, size


async def test_widening_the_editor_shows_every_line_from_its_start():
    app = make_app()
    async with app.run_test(size=SIZES[0]) as pilot:
        screen = await open_drill(pilot)
        editor = screen.editor
        main = screen.query_one("#ws-main")
        medium = "ratio = " + " * ".join(f"r{i}" for i in range(10))  # wider than the pane, not the screen
        longest = "# " + "a very long comment line " * 8  # wider than any screen: there is scroll to keep
        async for size in at_sizes(pilot):  # the same steps at each size, from side by side
            if main.has_class("-wide-editor"):
                await pilot.press("f3", "f3")  # the prompt alone, then side by side again
                for _ in range(3):
                    await pilot.pause()
            assert not main.has_class("-wide-editor", "-wide-side") and editor.has_focus, size
            editor.load_text(f"def f():\n    {medium}\n{longest}\n")
            await pilot.pause()
            editor.move_cursor((1, 4 + len(medium)))  # typing at the end of the medium line scrolls the view
            await pilot.pause()
            assert editor.scroll_x > 0, size
            await pilot.press("f3")  # the editor alone, as wide as the screen: the cursor fits from the left
            for _ in range(3):
                await pilot.pause()
            assert 4 + len(medium) + 3 <= editor.scrollable_content_region.width - editor.gutter_width, size
            assert editor.scroll_x == 0, size  # every line from its start


async def test_backspace_in_an_indent_removes_one_level():
    app = make_app()
    async with app.run_test(size=SIZES[0]) as pilot:
        screen = await open_drill(pilot)
        editor = screen.editor
        async for size in at_sizes(pilot):  # the same keys at each size
            editor.load_text("")
            editor.focus()
            await pilot.press(*"def f(x):", "enter", *"if x:", "enter")
            assert editor.document[2] == "        ", size
            await pilot.press("backspace")  # one level, not one space
            assert editor.document[2] == "    ", size
            await pilot.press(*"return 1")
            assert editor.text == "def f(x):\n    if x:\n    return 1", size
            editor.load_text("      y = 1")  # an indent off the grid goes back to the previous stop
            editor.move_cursor((0, 6))
            await pilot.press("backspace")
            assert editor.document[0] == "    y = 1", size
            editor.move_cursor((0, 9))  # after text, Backspace is one character as ever
            await pilot.press("backspace")
            assert editor.document[0] == "    y = ", size
            editor.move_cursor((0, 4))
            await pilot.press("shift+left", "backspace")  # a selection is deleted as selected
            assert editor.document[0] == "   y = ", size


async def test_without_its_indentation_keys_the_editor_is_textuals_own(monkeypatch):
    """Where the installed Textual lacks a private part the indentation keys use, `textual_guards.install()`
    turns them off (with a warning): Enter and Backspace are then `TextArea`'s own, each key typed once."""
    from tui.widgets import code_editor

    monkeypatch.setattr(code_editor, "INDENT_KEYS", False)
    app = make_app()
    async with app.run_test(size=SIZES[0]) as pilot:
        screen = await open_drill(pilot)
        editor = screen.editor
        editor.load_text("")
        editor.focus()
        await pilot.press(*"if x:", "enter", *"  y", "backspace")
        assert editor.text == "if x:\n  "
    assert app._exception is None


async def test_ctrl_g_always_asks_before_the_model_answer():
    app = make_app()
    async with app.run_test(size=SIZES[0]) as pilot:
        screen = await open_drill(pilot)
        async for size in at_sizes(pilot):  # the same keys at each size (the answer seen once already)
            if isinstance(app.screen, CodeScreen):
                await pilot.press("escape")
                await pilot.pause()
            assert app.screen is screen, size
            runs = screen.checks_run
            await pilot.press("ctrl+r")
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert screen.checks_run == runs + 1 == (1 if size == SIZES[0] else 2), size
            await pilot.press("ctrl+g")
            await pilot.pause()
            assert isinstance(app.screen, ConfirmScreen), size
            await pilot.press("n")
            await pilot.pause()
            assert app.screen is screen, size
            await pilot.press("ctrl+g", "y")
            await pilot.pause()
            assert isinstance(app.screen, CodeScreen), size
