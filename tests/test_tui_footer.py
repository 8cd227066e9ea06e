"""`KeyFooter` draws the keys exactly as Textual's compact `Footer` does, rebuilds them only when what
they show changes, its keys carry the compact class from the moment they exist (so a recompose styles
them once), and without the private `FooterKey` it is Textual's `Footer` as it is."""
from __future__ import annotations

import pytest
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.widgets import Footer, Input

from tui.widgets import footer as footer_module
from tui.widgets.footer import KeyFooter

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend():
    return "asyncio"


class _Keys(App):
    BINDINGS = [Binding("ctrl+r", "run", "Run"), Binding("f2", "hint", "Hint"), Binding("escape", "back", "Back")]

    def __init__(self, footer) -> None:
        super().__init__()
        self.footer = footer

    def compose(self) -> ComposeResult:
        yield Input()
        yield self.footer


async def _drawn(footer) -> list:
    app = _Keys(footer)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        keys = list(app.query_one(Footer).query("FooterKey"))
        assert keys
        return [(k.key_display, k.description, k.region, k.has_class("-compact")) for k in keys]


async def test_the_keys_are_drawn_as_textuals_compact_footer_draws_them():
    assert await _drawn(KeyFooter()) == await _drawn(Footer(compact=True))
    assert await _drawn(KeyFooter(compact=False)) == await _drawn(Footer())


class _Spy(KeyFooter):
    """KeyFooter noting, for each key it yields, whether it is compact before it is mounted."""

    def __init__(self, seen: list) -> None:
        super().__init__()
        self.seen = seen

    def compose(self) -> ComposeResult:
        for widget in super().compose():
            if type(widget).__name__ == "FooterKey":
                self.seen.append((widget.has_class("-compact"), widget.is_mounted))
            yield widget


async def test_keys_are_created_compact_at_each_recompose():
    seen: list = []
    app = _Keys(_Spy(seen))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        first = len(seen)
        app.set_focus(None)  # the bindings change: the footer recomposes its keys
        await pilot.pause()
        app.query_one(Input).focus()
        await pilot.pause()
    assert first and len(seen) > first, seen
    assert set(seen) == {(True, False)}, seen


async def test_without_footerkey_it_is_textuals_footer(monkeypatch):
    monkeypatch.setattr(footer_module, "FooterKey", None)
    assert await _drawn(KeyFooter()) == await _drawn(Footer(compact=True))


class _Toggle(App):
    """Two inputs (the same bindings whichever has focus) and a Run key that can be turned off."""

    BINDINGS = [Binding("ctrl+r", "run", "Run"), Binding("f2", "hint", "Hint")]
    can_run = True

    def compose(self) -> ComposeResult:
        yield Input(id="a")
        yield Input(id="b")
        yield KeyFooter()

    def check_action(self, action: str, parameters) -> bool | None:
        return None if action == "run" and not self.can_run else True


async def test_the_keys_are_rebuilt_only_when_what_they_show_changes():
    app = _Toggle()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        footer = app.query_one(KeyFooter)
        keys = list(footer.query("FooterKey"))
        for _ in range(3):  # focus moves and refreshes that leave the keys as they are
            await pilot.press("tab")
            app.screen.refresh_bindings()
            await pilot.pause()
        assert list(footer.query("FooterKey")) == keys  # the same widgets: nothing rebuilt
        app.can_run = False
        app.screen.refresh_bindings()
        await pilot.pause()
        run = [k for k in footer.query("FooterKey") if k.action == "run"]
        assert run and run[0].has_class("-disabled") and run[0] not in keys  # rebuilt, showing Run as unavailable
        app.can_run = True
        app.screen.refresh_bindings()
        await pilot.pause()
        assert not [k for k in footer.query("FooterKey") if k.action == "run"][0].has_class("-disabled")
