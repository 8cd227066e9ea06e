"""The key footer every screen shows, rebuilt only when its keys change, with its keys created in their
final style.

Textual's `Footer` recomposes its keys whenever the screen says its bindings may have changed: each focus
change, each key press that refreshes bindings, mostly to the same keys. Here a recompose happens only
when what the keys show (each binding's key, label, group, tooltip, whether it is enabled) differs from
what is shown; in the app's Pilot tests the footer had been rebuilt about a hundred times per test. And
each new key learns only once mounted whether it is compact: the class that says so arrives then and
restyles the key a second time. Here the keys carry that class from the start, so a recompose styles each
key once.

`FooterKey` lives in a private Textual module (`PRIVATE_APIS`, pinned in `pyproject.toml` to the range
tested). Where a Textual release has moved it, `KeyFooter` is Textual's `Footer` as it is: the same keys,
styled twice."""
from __future__ import annotations

from textual.app import ComposeResult
from textual.widgets import Footer

from checker.private_apis import absent

PRIVATE_APIS = ("textual.widgets._footer:FooterKey",)

try:
    from textual.widgets._footer import FooterKey
except ImportError:  # moved: the keys are styled as Textual's own Footer styles them
    FooterKey = None


def missing_private_apis() -> list[str]:
    """The private Textual attributes `KeyFooter` relies on that the installed Textual lacks."""
    return absent(PRIVATE_APIS)


class KeyFooter(Footer):
    """`Footer`, compact unless told otherwise, whose keys are created with the class that says so."""

    def __init__(self, *, compact: bool = True, show_command_palette: bool = True) -> None:
        super().__init__(compact=compact, show_command_palette=show_command_palette)
        self._shown: tuple | None = None  # what the composed keys show (`_keys`), None before any

    def _keys(self, screen) -> tuple:
        """What `compose` would show for `screen`: every active binding as the keys use it, and the
        footer's own settings."""
        return (tuple((binding.key, binding.description, binding.action, binding.show, binding.group,
                       binding.tooltip, enabled, tooltip)
                      for _node, binding, enabled, tooltip in screen.active_bindings.values()),
                self.compact, self.show_command_palette, self.combine_groups)

    def bindings_changed(self, screen) -> None:
        if (self._shown is not None and self._bindings_ready and self.is_attached and screen is self.screen
                and self._keys(screen) == self._shown):
            return  # the same keys as shown: nothing to rebuild
        super().bindings_changed(screen)

    def compose(self) -> ComposeResult:
        self._shown = self._keys(self.screen) if self._bindings_ready else None
        for widget in super().compose():
            if FooterKey is not None and isinstance(widget, FooterKey):
                widget.set_class(self.compact, "-compact", update=False)
            yield widget
