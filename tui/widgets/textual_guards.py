"""Guards for crashes inside Textual (8.2.8) that keys pressed quickly enough reach.

1. `OptionList._move_page` looks the highlighted option up in a line map that is only built once
   the list has a size. The command palette adds its commands and highlights the first while its
   container is still hidden, so ctrl+p followed at once by PageUp or PageDown (an ordinary
   key-repeat in a real terminal) raised `KeyError: 0` and ended the app; a `Select` whose overlay
   has not been laid out does the same. `install()` wraps `_move_page` so that, until the line map
   knows the highlighted option, a page key moves to the first or last option instead, as it does
   with nothing highlighted.
2. The command palette gathers commands in a worker; closed (escape) while that worker was still
   adding them, the worker's last refresh, or the "no matches" timer it starts, queried the
   palette's list after it was removed (`NoMatches: CommandList`, and the app ended).
   `CommandPalette` here is the same palette with both made no-ops once it is closed; `install()`
   also makes it the palette Textual itself opens (the theme search, `App.search_commands`), which
   crashed the same way (ctrl+p, "theme", enter, a letter, f1).
3. `Header` updates its title from watchers that raise NoMatches when they run after a screen
   opened and closed at once (or the app quit right after opening one); `Header` here skips them.

Upstream reports (Textual, widgets/_option_list.py and command.py):
- "OptionList.action_page_up/down raise KeyError when the list has options and a highlight but no
  size yet (scrollable_content_region empty, so _update_lines returns before filling
  _index_to_line); seen via CommandPalette: ctrl+p then PageUp at once."
- "CommandPalette._gather_commands -> _refresh_command_list -> _watch__list_visible, and the
  timer from _start_no_matches_countdown, raise NoMatches(CommandList) when the palette is
  dismissed while the gather worker is running."
- "Header._on_mount's set_title catches NoScreen but not NoMatches(HeaderTitle) when the watcher
  runs after the header's children were removed (push a screen with a Header, then quit at once)."

Each guard patches or overrides private parts of Textual (`PRIVATE_APIS` names them), so `pyproject.toml`
pins Textual to the range tested (`TEXTUAL_TESTED`). `install()` first checks that they are there. A guard
whose private parts are gone is skipped, with a `PrivateApiWarning` naming each missing attribute, the
installed Textual version and the tested range, rather than refusing to start: every guard only stops a
rare crash from keys pressed faster than a screen mounts, and without it the app is Textual's own, which
works in ordinary use. Skipped means Textual's behaviour, not half a patch: no wrapper is put in place,
and the guard's overrides are removed from the classes here, so Textual's own methods answer.

The private parts the rest of the app overrides or calls are listed here too, so that one check at start
covers them all: the app's `_handle_exception` (a crash guard of the same kind, which Textual would just
stop calling) and the code editor's indentation keys (`tui/widgets/code_editor.py`, which fall back to
Textual's own keys).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import wraps
from typing import Callable

import textual.app as textual_app
from textual.command import CommandPalette as _TextualCommandPalette
from textual.css.query import NoMatches
from textual.events import Mount
from textual.widget import NoScreen
from textual.widgets import Header as _TextualHeader
from textual.widgets import OptionList

from checker.private_apis import absent, warn_missing
from tui.widgets import code_editor

try:
    from textual.widgets._header import HeaderTitle
except ImportError:  # moved: install() gives `Header` Textual's own title updates back
    HeaderTitle = None

TEXTUAL_TESTED = ">=8.2.8,<8.3"  # the pin in pyproject.toml

_installed = False


def install() -> None:
    """Put every guard whose private Textual parts are there in place, and skip, with a warning, each
    whose are not (idempotent)."""
    global _installed
    if _installed:
        return
    for guard in PRIVATE_APIS.values():
        if warn_missing("textual", TEXTUAL_TESTED, guard.names, f"that guard is skipped: {guard.without}"):
            guard.skip()
        else:
            guard.apply()
    _installed = True


def missing_private_apis() -> list[str]:
    """The private Textual attributes the guards patch or rely on that the installed Textual lacks."""
    return [name for guard in PRIVATE_APIS.values() for name in absent(guard.names)]


def _guard_page_keys() -> None:
    original = OptionList._move_page

    @wraps(original)
    def _move_page(self: OptionList, direction) -> None:
        if self.highlighted is not None and self.highlighted not in self._index_to_line:
            if direction < 0:
                self.action_first()
            else:
                self.action_last()
            return
        original(self, direction)

    OptionList._move_page = _move_page


def _guard_textuals_own_palettes() -> None:
    # Textual pushes palettes of its own too (the theme search behind the palette's "Theme" command,
    # App.search_commands); those must be the guarded palette as well (item 2 above).
    textual_app.CommandPalette = CommandPalette


def _nothing() -> None:
    """Nothing to do: a guard that is an override in a class below is in place already, and a patch
    not applied leaves nothing to undo."""


def _drop(cls: type, *names: str) -> None:
    """Remove overrides from one of the classes below, so Textual's own methods answer again."""
    for name in names:
        if name in cls.__dict__:
            delattr(cls, name)


class CommandPalette(_TextualCommandPalette):
    """Textual's command palette, safe to close while it is still gathering commands."""

    def _palette_gone(self) -> bool:
        return not self.is_attached or self not in self.app.screen_stack

    def _watch__list_visible(self) -> None:
        try:
            super()._watch__list_visible()
        except NoMatches:  # closed while the gather worker was still adding commands
            pass

    def _start_no_matches_countdown(self, search_value: str) -> None:
        if not self._palette_gone():  # a closed palette's timer would look for its list when it fires
            super()._start_no_matches_countdown(search_value)


class Header(_TextualHeader):
    """Textual's header, whose title watchers survive the header's removal.

    Textual's header updates its title from watchers on the app's and the screen's title; when a
    screen is opened and closed (or the app quits) before a pending update runs, the update finds
    no title widget and raises NoMatches, which ends the app. Here that update is skipped instead.
    """

    def _on_mount(self, event: Mount) -> None:
        event.prevent_default()  # replaces Textual's handler, which registers the unguarded watchers

        async def set_title() -> None:
            try:
                self.query_one(HeaderTitle).update(self.format_title())
            except (NoScreen, NoMatches):
                pass

        self.watch(self.app, "title", set_title)
        self.watch(self.app, "sub_title", set_title)
        self.watch(self.screen, "title", set_title)
        self.watch(self.screen, "sub_title", set_title)


@dataclass(frozen=True)
class _Guard:
    """One guard: what it needs of Textual, what is lost without it, and how it is applied or skipped."""

    names: tuple[str, ...]  # the private Textual attributes it patches or relies on, `module:attr.attr`
    without: str  # what may happen while it is skipped
    apply: Callable[[], None]
    skip: Callable[[], None]


PRIVATE_APIS: dict[str, _Guard] = {
    "page keys": _Guard(
        ("textual.widgets._option_list:OptionList._move_page", "textual.widgets._option_list:OptionList._index_to_line"),
        "PageUp or PageDown in a list not yet laid out (ctrl+p, then PageDown at once) may end the app",
        _guard_page_keys, _nothing),
    "closed palette": _Guard(
        ("textual.command:CommandPalette._watch__list_visible",
         "textual.command:CommandPalette._start_no_matches_countdown"),
        "closing the command palette while it still gathers commands may end the app",
        _nothing, lambda: _drop(CommandPalette, "_watch__list_visible", "_start_no_matches_countdown")),
    "Textual's own palettes": _Guard(
        ("textual.app:CommandPalette",),
        "the palettes Textual opens itself (the theme search) are Textual's unguarded one",
        _guard_textuals_own_palettes, _nothing),
    "closed screens": _Guard(
        ("textual.app:App._handle_exception",),
        "a key that reaches a screen closed a moment before may end the app (`PpoDrillApp._handle_exception`)",
        _nothing, _nothing),
    "editor keys": _Guard(
        code_editor.PRIVATE_APIS,
        "the code editor's Enter and Backspace do not indent (they are Textual's own)",
        lambda: setattr(code_editor, "INDENT_KEYS", True), lambda: setattr(code_editor, "INDENT_KEYS", False)),
    "header": _Guard(
        ("textual.widgets._header:HeaderTitle", "textual.widgets._header:Header._on_mount"),
        "a screen opened and closed at once may end the app",
        _nothing, lambda: _drop(Header, "_on_mount")),
}
