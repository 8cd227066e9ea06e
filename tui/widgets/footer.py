"""The key footer every screen shows, with its keys created in their final style.

Textual's `Footer` recomposes its keys whenever the screen's bindings change (each focus change), and each
new key learns only once mounted whether it is compact: the class that says so arrives then and restyles the
key a second time. Here the keys carry that class from the start, so a recompose styles each key once (in
the app's Pilot tests the second styling was about a tenth of all the time spent).

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

    def compose(self) -> ComposeResult:
        for widget in super().compose():
            if FooterKey is not None and isinstance(widget, FooterKey):
                widget.set_class(self.compact, "-compact", update=False)
            yield widget
