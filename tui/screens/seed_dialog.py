"""`SeedScreen`: a small modal asking for a mock's seed, so the start panel can replay any seed (the same
seed gives the same session) without leaving the app; dismisses with the seed, or None when cancelled."""
from __future__ import annotations

from rich.markup import escape
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Static

MAX_SEED = 10**9


def parse_seed(text: str) -> int:
    """A seed typed by a person: a whole number from 0 to `MAX_SEED`, or ValueError saying so."""
    try:
        seed = int(text.strip())
    except ValueError:
        raise ValueError(f"a seed is a whole number (e.g. 7), got {text.strip()!r}") from None
    if not 0 <= seed <= MAX_SEED:
        raise ValueError(f"a seed is from 0 to {MAX_SEED:,}, got {seed}")
    return seed


class SeedScreen(ModalScreen[int | None]):
    """The seed to plan the mock from."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, current: int) -> None:
        super().__init__()
        self.current = current

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static("[b]Mock seed[/b] (the same seed gives the same drills and questions; "
                         "`ppo-drill mock --history` lists past ones)", classes="dialog-text")
            yield Input(str(self.current), placeholder="7", id="seed-input", type="integer")
            yield Static("", id="seed-error")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Use it (enter)", variant="primary", id="use")
                yield Button("Cancel (esc)", id="cancel")

    def on_mount(self) -> None:
        self.query_one("#seed-input", Input).focus()

    @on(Input.Submitted)
    @on(Button.Pressed, "#use")
    def _use(self) -> None:
        try:
            seed = parse_seed(self.query_one("#seed-input", Input).value)
        except ValueError as exc:
            self.query_one("#seed-error", Static).update(f"[red]{escape(str(exc))}[/red]")
            return
        self.dismiss(seed)

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)
