"""`MockDrill`: a coding item of a mock interview: the drill's prompt and the last checker verdict
(`ResultsPanel`) beside a Python editor.

The prompt scrolls (it is longer than the pane at 80x24): `focus_prompt()` puts the keyboard on it, so
arrows and page keys scroll it, and `cycle_layout()` gives the prompt or the editor the whole width.

It only shows; running the checks, saving the typed answer and recording the attempt are the screen's
and the session's. The editor is made in `__init__` and kept by reference, so the screen can still read
the answer while the widget tree is being unmounted (answers are saved on the way out too)."""
from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll

from tui.widgets.code_editor import CodeEditor
from tui.widgets.markdown_text import MarkdownText
from tui.widgets.results import ResultsPanel


class MockDrill(Horizontal):
    """Prompt and results on the left, the answer editor on the right."""

    DEFAULT_CSS = """
    MockDrill #drill-side { width: 2fr; min-width: 30; }
    MockDrill #drill-prompt-scroll { height: 1fr; }
    MockDrill #drill-prompt-scroll:focus { background: $boost; }
    MockDrill #drill-results { height: auto; max-height: 45%; border-top: solid $primary; }
    MockDrill #drill-editor { width: 3fr; height: 1fr; }
    MockDrill.-wide-editor #drill-side { display: none; }
    MockDrill.-wide-side #drill-editor { display: none; }
    """

    LAYOUTS = ("", "-wide-editor", "-wide-side")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.editor = CodeEditor.code_editor("", language="python", id="drill-editor", soft_wrap=False)

    def compose(self) -> ComposeResult:
        with Vertical(id="drill-side"):
            with VerticalScroll(id="drill-prompt-scroll", can_focus=True):
                yield MarkdownText("", id="drill-prompt")
            yield ResultsPanel(id="drill-results")
        yield self.editor

    @property
    def results(self) -> ResultsPanel:
        return self.query_one("#drill-results", ResultsPanel)

    @property
    def prompt_scroll(self) -> VerticalScroll:
        return self.query_one("#drill-prompt-scroll", VerticalScroll)

    def show(self, item: Any, title: str, prompt: str, answer: str) -> None:
        """Show mock item `item` (drill `title`, its `prompt` in the candidate's language) with
        `answer` in the editor, and put the cursor there."""
        self.query_one("#drill-prompt", MarkdownText).update_markdown(
            f"## {item.index + 1}. {title}\n\n*{item.framework} · {item.difficulty} · "
            f"target {item.target_minutes} min*\n\n{prompt}")
        self.prompt_scroll.scroll_home(animate=False)
        self.remove_class(*self.LAYOUTS[1:])  # each item opens side by side: its title and prompt first
        self.editor.load_text(answer)
        self.results.show_message("No checks run yet", "ctrl+r runs the checks; a pass moves on.")
        self.editor.focus()

    def show_results(self) -> None:
        """Bring the prompt and results back beside the editor (a run of the checks with the editor
        alone would otherwise show nothing); the cursor stays where it is."""
        self.remove_class("-wide-editor")

    def focus_prompt(self) -> None:
        """Move the keyboard to the prompt (arrows and page keys scroll it), or back to the editor."""
        if self.prompt_scroll.has_focus and self.editor.display:
            self.editor.focus()
        elif self.query_one("#drill-side").display:
            self.prompt_scroll.focus()

    def cycle_layout(self) -> None:
        """Side by side, the editor alone, the prompt and results alone."""
        current = next((c for c in self.LAYOUTS[1:] if self.has_class(c)), "")
        following = self.LAYOUTS[(self.LAYOUTS.index(current) + 1) % len(self.LAYOUTS)]
        self.remove_class(*self.LAYOUTS[1:])
        if following:
            self.add_class(following)
        (self.prompt_scroll if following == "-wide-side" else self.editor).focus()
