"""`MockDrill`: a coding item of a mock interview: the drill's prompt and the last checker verdict
(`ResultsPanel`) beside a Python editor.

It only shows; running the checks, saving the typed answer and recording the attempt are the screen's
and the session's. The editor is made in `__init__` and kept by reference, so the screen can still read
the answer while the widget tree is being unmounted (answers are saved on the way out too)."""
from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Markdown, TextArea

from tui.widgets.results import ResultsPanel


class MockDrill(Horizontal):
    """Prompt and results on the left, the answer editor on the right."""

    DEFAULT_CSS = """
    MockDrill #drill-side { width: 2fr; }
    MockDrill #drill-prompt { height: 1fr; }
    MockDrill #drill-results { height: 1fr; border-top: solid $primary; }
    MockDrill #drill-editor { width: 3fr; height: 1fr; }
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.editor = TextArea.code_editor("", language="python", id="drill-editor", soft_wrap=False)

    def compose(self) -> ComposeResult:
        with Vertical(id="drill-side"):
            yield Markdown("", id="drill-prompt")
            yield ResultsPanel(id="drill-results")
        yield self.editor

    @property
    def results(self) -> ResultsPanel:
        return self.query_one("#drill-results", ResultsPanel)

    def show(self, item: Any, title: str, prompt: str, answer: str) -> None:
        """Show mock item `item` (drill `title`, its `prompt` in the candidate's language) with
        `answer` in the editor, and put the cursor there."""
        self.query_one("#drill-prompt", Markdown).update(
            f"## {item.index + 1}. {title}\n\n*{item.framework} · {item.difficulty} · "
            f"target {item.target_minutes} min*\n\n{prompt}")
        self.editor.load_text(answer)
        self.results.show_message("No checks run yet", "ctrl+r runs the checks; a pass moves on.")
        self.editor.focus()
