"""No key sequence crashes the app: the command palette's crashes (ctrl+p f1 ctrl+p; ctrl+p then
PageUp/PageDown at once; closing it while it gathers commands), keys for a screen that is not ready,
keys while quitting, and a seeded random-key run across every screen (fixed clock, scripted checker).
`bench/random_keys.py` runs the same driver for 10,000 keys."""
from __future__ import annotations

import asyncio
import time

import pytest
from textual.app import App
from textual.command import CommandPalette
from textual.widgets import OptionList

from tui.app import PpoDrillApp
from tui.screens.help import HelpScreen
from tui.screens.review import ReviewScreen
from tui.testing import FixedClock, ScriptedChecker, _key_event, press_randomly, random_keys

SIZE = (100, 30)
pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend():
    return "asyncio"


@pytest.fixture(autouse=True)
def _no_editor(monkeypatch):
    monkeypatch.delenv("EDITOR", raising=False)
    monkeypatch.delenv("VISUAL", raising=False)


def make_app(clock=None):
    app = PpoDrillApp(clock=clock or FixedClock(), checker_factory=ScriptedChecker, fuzz=False)
    app.animation_level = "none"
    return app


async def ready(pilot) -> None:
    for _ in range(500):
        if pilot.app.session is not None:
            return
        await pilot.pause(0.01)
    raise AssertionError("the app never loaded its session")


async def burst(app, pilot, *keys: str) -> None:
    """Keys with no wait between them, as a real terminal delivers a quick sequence."""
    for key in keys:
        app._driver.send_message(_key_event(app, key))
    await pilot.pause()


def record_palettes(monkeypatch) -> list:
    """Every command palette opened from here on, in order (the app's and Textual's own: one class)."""
    from tui.widgets import textual_guards

    opened = []
    init = textual_guards.CommandPalette.__init__

    def recording_init(self, *args, **kwargs):
        init(self, *args, **kwargs)
        opened.append(self)

    monkeypatch.setattr(textual_guards.CommandPalette, "__init__", recording_init)
    return opened


def countdowns(node) -> list:
    """The node's one-shot timers that have neither fired nor been stopped."""
    return [t for t in list(node._timers) if t._repeat == 0 and t._task is not None and not t._task.done()]


def still_to_run(app, palettes) -> list:
    """What the palettes, open or closed, still have to run: a gather worker, or a countdown (the "no
    matches" and busy timers, 0.5 s in Textual 8.2) that has neither fired nor been stopped."""
    return ([w for w in app.workers if w.node in palettes and not w.is_finished]
            + [t for p in palettes for t in countdowns(p)])


async def until(pilot, condition, what: str, timeout: float = 10.0) -> None:
    """Wait until `condition()` holds (checked every 10 ms, at most `timeout` seconds), then for the app."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"not {what} after {timeout} s"
        await asyncio.sleep(0.01)
    await pilot.pause()


async def until_palettes_done(app, pilot, palettes) -> None:
    """Until every palette's gather worker has ended and each countdown it started has run out (fired,
    or stopped with its palette): whatever a palette closed mid-search still does has happened."""
    await until(pilot, lambda: not still_to_run(app, palettes), "done with the palettes' worker and timers")


async def test_palette_help_palette_opens_one_palette_over_help():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("ctrl+p", "f1", "ctrl+p")
        names = [type(s).__name__ for s in app.screen_stack]
        assert names[-2:] == ["HelpScreen", "CommandPalette"] and names.count("CommandPalette") == 1
        await pilot.press("escape", "escape")
        assert not isinstance(app.screen, (HelpScreen, CommandPalette))
        await burst(app, pilot, "ctrl+p", "f1", "ctrl+p", "f1", "ctrl+p", "ctrl+p")
        assert [isinstance(s, CommandPalette) for s in app.screen_stack].count(True) <= 1
    assert app._exception is None


async def test_page_keys_right_after_opening_the_palette():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        for keys in (("ctrl+p", "pageup"), ("ctrl+p", "pagedown"), ("ctrl+p", "pagedown", "pageup")):
            await burst(app, pilot, *keys, "pagedown", "pageup")
            assert isinstance(app.screen, CommandPalette)
            await pilot.press("escape")
    assert app._exception is None


async def test_an_option_list_not_laid_out_takes_page_keys():
    """The Textual bug itself: options and a highlight, but no size yet."""
    class Lists(App):
        def compose(self):
            hidden = OptionList(*[f"option {i}" for i in range(30)], id="hidden")
            hidden.display = False
            yield hidden

    app = Lists()
    async with app.run_test() as pilot:
        options = app.query_one("#hidden", OptionList)
        options.highlighted = 0
        options.action_page_down()
        assert options.highlighted == 29
        options.action_page_up()
        assert options.highlighted == 0
        await pilot.pause()


async def test_closing_the_palette_while_it_gathers_commands(monkeypatch):
    app = make_app()
    palettes = record_palettes(monkeypatch)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        for _ in range(5):
            await burst(app, pilot, "ctrl+p", "z", "q", "escape")
        assert len(palettes) == 5
        await until_palettes_done(app, pilot, palettes)  # past the "no matches" countdown of each one
    assert app._exception is None


async def test_keys_for_a_screen_not_yet_mounted_or_already_closed():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        for _ in range(3):
            await burst(app, pilot, "r", "l", "space", "3", "u", "escape", "l", "u", "space")
        app.push_screen(ReviewScreen())
        await burst(app, pilot, "l", "l", "space")
    assert app._exception is None


async def test_keys_while_the_app_quits():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await burst(app, pilot, "q", "r", "escape", "d", "up", "ctrl+p")
    assert app._exception is None


async def test_seeded_random_keys_across_every_screen_do_not_crash_the_app():
    clock = FixedClock()
    app = make_app(clock)
    seen: set[str] = set()

    def each_key(_key):
        seen.add(type(app.screen).__name__)
        clock.advance(seconds=7)

    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        keys = [k for k in random_keys(seed=2026, count=160) if k != "q"]  # stay in this one app
        await press_randomly(app, pilot, keys, on_key=each_key, visit_every=2)
    assert app._exception is None
    screens = {"DashboardScreen", "ReviewScreen", "DrillListScreen", "PasteScreen", "MockScreen",
               "StatsScreen", "HelpScreen", "WorkspaceScreen"}
    assert len(screens & seen) >= 7, seen


async def test_a_screen_closed_before_it_mounted():
    """escape right after the key that opened a screen: its mount handler finds its widgets gone."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        for key in ("r", "d", "p", "s", "m", "f1"):
            await burst(app, pilot, key, "escape", key, "escape", "escape")
    assert app._exception is None


async def test_only_a_closed_screens_missing_widgets_are_forgiven():
    from textual.css.query import NoMatches

    from tui.app import _from_a_closed_screen

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        screen = ReviewScreen()
        app.push_screen(screen)
        await pilot.pause()
        with pytest.raises(NoMatches) as open_error:
            screen.query_one("#review-front").remove()
            await pilot.pause()
            screen.next_card()
        assert not _from_a_closed_screen(app, open_error.value)  # still open: a real bug, not forgiven
        app.pop_screen()
        await pilot.pause()
        with pytest.raises(NoMatches) as closed_error:
            screen.next_card()
        assert _from_a_closed_screen(app, closed_error.value)
        assert not _from_a_closed_screen(app, KeyError(0))


@pytest.mark.parametrize("opened_by", ["keys", "search_themes", "search_commands"])
async def test_textuals_own_palettes_closed_mid_search_do_not_crash(opened_by, monkeypatch):
    """The palettes Textual pushes itself (the theme search behind the palette's "Theme" command,
    `search_commands`) are the guarded palette too: typing, then f1 (which closes a palette) while it
    still gathers matches, ended the app with NoMatches(CommandList). Found by bench/random_keys.py,
    seed 0 (ctrl+p, ..., 4, f1)."""
    from textual.command import SimpleCommand

    from tui.widgets import textual_guards

    app = make_app()
    palettes = record_palettes(monkeypatch)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        for _ in range(4):
            if opened_by == "keys":
                await pilot.press("ctrl+p", *"theme")
                await until_palettes_done(app, pilot, palettes)  # the "theme" search has its matches
                assert palettes[-1].query_one("CommandList").option_count
                await pilot.press("enter")
            elif opened_by == "search_themes":
                app.search_themes()
            else:
                app.search_commands([SimpleCommand("Four", lambda: None, "a command")])
            await pilot.pause()
            assert isinstance(app.screen, textual_guards.CommandPalette), app.screen_stack
            await burst(app, pilot, "4", "f1")
            await until_palettes_done(app, pilot, palettes)  # past the gather worker's last refresh and
            # the "no matches" timer
            await pilot.press("escape", "escape")
    assert app._exception is None


async def test_a_palette_opened_while_the_last_one_is_still_being_removed_waits_for_it():
    """f1 closes the palette before help opens; a ctrl+p right after (a loaded machine, a quick typist)
    finds the old palette closed but not yet removed: it opens once the old one is gone, never ending
    the app with DuplicateIds."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        app.action_command_palette()
        await pilot.pause()
        assert isinstance(app.screen, CommandPalette)
        app.pop_screen()
        app.action_command_palette()  # at once: the popped palette is still being removed
        await until(pilot, lambda: isinstance(app.screen, CommandPalette) and not countdowns(app),
                    "a palette on top, the app's retries over")
        assert app._exception is None
        assert isinstance(app.screen, CommandPalette)
        assert [isinstance(s, CommandPalette) for s in app.screen_stack].count(True) == 1
