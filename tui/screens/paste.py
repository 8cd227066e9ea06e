"""`PasteScreen`: paste an answer (or load a file), and check it. The drill is detected from the
function the code defines and the framework from its imports, unless chosen; the verdict uses the
same results panel as the workspace.

A paste that runs is recorded as an (untimed) attempt at its drill, like a `ppo-drill check`; a paste
that does not even run (a syntax error, no drill function) is not an attempt, so a throwaway snippet
never fails or reschedules a drill. The screen says so above the editor."""
from __future__ import annotations

from pathlib import Path

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Input, Select, Static, TextArea

from tui.checking import CheckRunner
from tui.widgets.code_editor import CodeEditor
from tui.widgets.footer import KeyFooter
from tui.widgets.results import ResultsPanel
from tui.widgets.textual_guards import Header

#: What the line above the editor says about how pastes count.
COUNTING = ("A paste that runs counts as an untimed attempt at its drill; one that does not run "
            "(syntax error, no drill function) is not counted.")
#: Errors that mean the code never ran: such a paste is not an attempt.


class PasteScreen(CheckRunner, Screen):
    """An editor to paste into, optional drill and framework choices, and the results panel."""

    BINDINGS = [
        Binding("ctrl+r", "run_checks", "Check", priority=True, tooltip="check"),
        Binding("ctrl+o", "focus_path", "Load file", tooltip="load a file (type its path above, then enter)"),
        Binding("ctrl+l", "card", "Review card", tooltip="review the card of the named mistake"),
        Binding("ctrl+n", "clear", "Clear", priority=True, tooltip="clear the box (ctrl+z brings it back)"),
        Binding("f2", "toggle_results", "Results", tooltip="move to the results (arrows and page keys "
                "scroll them) and back to the editor"),
        Binding("alt+down", "page_results(1)", "Scroll", show=False, tooltip="page the results down"),
        Binding("alt+up", "page_results(-1)", "Scroll", show=False, tooltip="page the results up"),
        Binding("ctrl+e", "focus_editor", "Editor", show=False, tooltip="back to the editor"),
        Binding("escape", "app.pop_screen", "Back", priority=True, tooltip="back"),
    ]

    def compose(self) -> ComposeResult:
        drills = self.app.session.drills
        yield Header()
        with Horizontal(id="paste-bar"):
            yield Select([(d.id, d.id) for d in drills], prompt="drill: detect", id="paste-drill",
                         compact=True)
            yield Select([("numpy", "numpy"), ("torch", "torch")], prompt="framework: detect",
                         id="paste-framework", compact=True)
            yield Input(placeholder="or a file path, then enter", id="paste-path", compact=True)
        yield Static(COUNTING, id="paste-counting")
        with Horizontal(id="paste-main"):
            yield CodeEditor.code_editor("", language="python", id="paste-editor", soft_wrap=False)
            with Vertical(id="paste-side"):
                yield ResultsPanel(card_key="ctrl+l", id="paste-results")
        yield KeyFooter()

    def on_mount(self) -> None:
        editor = self.query_one("#paste-editor", TextArea)
        editor.border_title = "Paste, then ctrl+r"
        editor.focus()

    def _choice(self, selector: str) -> str | None:
        value = self.query_one(selector, Select).value
        return None if value is Select.NULL else value

    @on(Input.Submitted, "#paste-path")
    def _load(self, event: Input.Submitted) -> None:
        path = Path(event.value.strip()).expanduser()
        if not event.value.strip():
            return
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            self.notify(f"Cannot read {path}: {reason}", severity="error")
            return
        editor = self.query_one("#paste-editor", TextArea)
        editor.load_text(text)
        editor.focus()
        self.notify(f"Loaded {path}")

    def action_focus_path(self) -> None:
        self.query_one("#paste-path", Input).focus()

    def action_focus_editor(self) -> None:
        self.query_one("#paste-editor", TextArea).focus()

    def action_toggle_results(self) -> None:
        """The keyboard to the results (arrows, page keys, home and end scroll them), or back."""
        panel = self.query_one(ResultsPanel)
        if panel.has_focus:
            self.action_focus_editor()
        else:
            panel.focus()

    def action_page_results(self, direction: int) -> None:
        """Page the results while the cursor stays in the editor."""
        panel = self.query_one(ResultsPanel)
        (panel.scroll_page_down if direction > 0 else panel.scroll_page_up)(animate=False)

    def action_run_checks(self) -> None:
        code = self.query_one("#paste-editor", TextArea).text
        if not code.strip():
            self.notify("Paste some code first.", severity="warning")
            return
        self.query_one(ResultsPanel).show_running("" if self.app.checker_warm() else
                                                  "Starting the checker: the first check takes a few seconds.")
        self.start_check(code, self._choice("#paste-drill"), self._choice("#paste-framework"),
                         {"code": code, "started_at": self.app.session.now()})

    def action_clear(self) -> None:
        editor = self.query_one("#paste-editor", TextArea)
        if editor.text:
            editor.clear()  # an edit like any other: ctrl+z brings it back
            self.notify("Cleared (ctrl+z brings it back).")
        editor.focus()

    def check_done(self, report, context) -> None:
        panel = self.query_one(ResultsPanel)
        panel.show_report(report)
        session = self.app.session
        drill = next((d for d in session.drills if d.id == report.drill), None)
        if drill is None or session.store is None:
            return
        if not report.code_ran:
            self.notify("Not counted as an attempt: the code did not run.", timeout=6)
            return
        try:
            session.record_check(report, drill, report.framework, started_at=context["started_at"],
                                 elapsed_s=None, code=context["code"])
        except Exception as exc:  # noqa: BLE001 - keep the verdict on screen
            self.notify(f"The attempt was not recorded: {exc}", severity="error")

    def check_failed(self, title: str, message: str, context) -> None:
        if "--drill" in message:  # the checker's CLI wording; here the drill is chosen in the list above
            message = message.replace("pass --drill ID", "choose the drill in the list above")
            message = message.replace("--drill ID", "the drill in the list above")
            self.query_one("#paste-drill", Select).focus()
        self.query_one(ResultsPanel).show_message(title, message)

    def action_card(self) -> None:
        known = self.app.session.deckset.by_id
        cards = [c for c in self.query_one(ResultsPanel).cards if c in known]
        if cards:
            self.app.open_cards(cards)
        else:
            self.notify("No named mistake, so no card to review.")
