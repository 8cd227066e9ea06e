"""`CodeScreen`: a modal view of code to read and copy (a drill's model answer):
read-only and highlighted, long lines scroll rather than wrap away, and escape closes it."""
from __future__ import annotations

from rich.markup import escape
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static, TextArea


class CodeScreen(ModalScreen[None]):
    """Read-only, highlighted, scrollable code (long lines scroll rather than vanish); text can be
    selected and copied. Escape closes it."""

    BINDINGS = [Binding("escape,q", "app.pop_screen", "Close")]

    def __init__(self, title: str, code: str) -> None:
        super().__init__()
        self.title_text = title
        self.code = code

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog dialog-wide"):
            yield Static(f"[b]{escape(self.title_text)}[/b]   [dim](escape closes)[/dim]",
                         classes="dialog-text")
            yield TextArea.code_editor(self.code, language="python", read_only=True, soft_wrap=False)
