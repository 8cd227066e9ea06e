"""`PlanSettingsScreen`: the app's settings for the study plan and mocks: the interview date (the plan
counts down to it; empty clears it) and whether mock interviews are coached (the checker names the
mistake and explains it during the mock) or run like an interview (pass / fail and the smallest
failing input only, everything revealed on the scorecard).

A modal over the dashboard (key `i`) and the command palette; it stores through `tui.session.Session`,
the same settings `ppo-drill plan --interview` writes."""
from __future__ import annotations

from rich.markup import escape
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Checkbox, Input, Static

from cards.plan.interview import parse_day


class PlanSettingsScreen(ModalScreen[bool]):
    """Interview date and mock mode; dismisses True when saved."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def compose(self) -> ComposeResult:
        session = self.app.session
        day = session.interview_date() if session else None
        with Vertical(classes="dialog"):
            yield Static("[b]Interview date[/b] (YYYY-MM-DD; empty: no date, plain spaced review)",
                         classes="dialog-text")
            yield Input(day.isoformat() if day else "", placeholder="2026-12-20", id="interview-date")
            yield Static("", id="settings-error")
            yield Checkbox("Coached mocks: name the mistake during a mock",
                           bool(session and session.coached_mocks), id="coached")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Save (enter)", variant="primary", id="save")
                yield Button("Cancel (esc)", id="cancel")

    def on_mount(self) -> None:
        self.query_one("#interview-date", Input).focus()

    @on(Input.Submitted)
    @on(Button.Pressed, "#save")
    def _save(self) -> None:
        session = self.app.session
        if session is None or session.store is None:
            self.query_one("#settings-error", Static).update("[red]Progress is not available.[/red]")
            return
        text = self.query_one("#interview-date", Input).value.strip()
        try:
            day = parse_day(text) if text else None
        except ValueError as exc:
            self.query_one("#settings-error", Static).update(f"[red]{escape(str(exc))}[/red]")
            return
        if day is not None and day < session.now().date():
            self.query_one("#settings-error", Static).update(
                f"[red]{day.isoformat()} has passed (today is {session.now().date().isoformat()} UTC)[/red]")
            return
        session.set_interview_date(day)
        session.set_coached_mocks(self.query_one("#coached", Checkbox).value)
        self.dismiss(True)

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(False)
