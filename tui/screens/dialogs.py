"""Small modal screens: `ConfirmScreen` (yes/no) and `CodeScreen` (code to read and copy, e.g. the
model answer)."""
from __future__ import annotations

from rich.markup import escape
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static, TextArea


class ConfirmScreen(ModalScreen[bool]):
    """Ask before something that cannot be taken back; dismisses with True for yes."""

    BINDINGS = [Binding("y", "answer(True)", "Yes"), Binding("n,escape", "answer(False)", "No")]

    def __init__(self, question: str, yes: str = "Yes") -> None:
        super().__init__()
        self.question = question
        self.yes = yes

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(escape(self.question), classes="dialog-text")
            with Horizontal(classes="dialog-buttons"):
                yield Button(f"{self.yes} (y)", variant="warning", id="yes")
                yield Button("Cancel (n)", id="no")

    def on_mount(self) -> None:
        self.query_one("#no", Button).focus()

    def action_answer(self, value: bool) -> None:
        self.dismiss(value)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")


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
