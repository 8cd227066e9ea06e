"""`CodeEditor`: the Python editor of the drill, paste and mock screens — Textual's code editor plus
auto-indent, so typing Python line by line keeps its blocks: Enter indents the new line to the
previous line's level, one level more after a line ending in ":". Pasted text (a terminal paste
arrives as one Paste event, not as keys) is inserted exactly as it was copied."""
from __future__ import annotations

from textual import events
from textual.widgets import TextArea


class CodeEditor(TextArea):
    """A `TextArea` whose Enter carries the indentation on (create with `CodeEditor.code_editor`)."""

    def indent_after(self, line: str) -> str:
        """The indentation a new line gets after `line` (the text left of the cursor)."""
        indent = line[: len(line) - len(line.lstrip(" \t"))]
        if line.split("#", 1)[0].rstrip().endswith(":"):
            indent += "\t" if self.indent_type == "tabs" else " " * self.indent_width
        return indent

    async def _on_key(self, event: events.Key) -> None:
        if event.key == "enter" and not self.read_only:
            event.stop()
            event.prevent_default()
            self._restart_blink()
            start, end = self.selection
            row, column = min(start, end)
            self._replace_via_keyboard("\n" + self.indent_after(self.document[row][:column]), start, end)
            return
        await super()._on_key(event)
