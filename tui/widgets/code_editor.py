"""`CodeEditor`: the Python editor of the drill, paste and mock screens — Textual's code editor plus
auto-indent, so typing Python line by line keeps its blocks: Enter indents the new line to the
previous line's level, one level more after a line ending in ":", and Backspace in a line's leading
spaces removes one level. Pasted text (a terminal paste
arrives as one Paste event, not as keys) is inserted exactly as it was copied.

Code longer than `HIGHLIGHT_LIMIT` characters is shown without syntax highlighting: Textual's
tree-sitter parse reads the document through a callback whose cost grows faster than the text
(about 3 s to load 100,000 characters; at 300,000 the app froze while its memory climbed), and
plain text loads at once. Highlighting comes back once the code is short enough again.

The indentation keys override and call private parts of Textual's `TextArea` (`PRIVATE_APIS`, pinned in
`pyproject.toml` and checked at start-up with the crash guards, `tui/widgets/textual_guards.py`). Where
a Textual release lacks one, the editor is Textual's own: Enter and Backspace as `TextArea` has them."""
from __future__ import annotations

from textual import events
from textual.widgets import TextArea

PRIVATE_APIS = ("textual.widgets._text_area:TextArea._on_key", "textual.widgets._text_area:TextArea._on_paste",
                "textual.widgets._text_area:TextArea._replace_via_keyboard",
                "textual.widgets._text_area:TextArea._restart_blink")
#: Enter and Backspace indent; `textual_guards.install()` turns this off where the installed Textual lacks
#: a part of `PRIVATE_APIS` (with a warning naming it).
INDENT_KEYS = True

#: The longest code (in characters) the editor highlights.
HIGHLIGHT_LIMIT = 30_000


class CodeEditor(TextArea):
    """A `TextArea` whose Enter carries the indentation on (create with `CodeEditor.code_editor`)."""

    _language_for_size: str | None = None  # the language switched off while the code is too long

    def load_text(self, text: str) -> None:
        self._fit_language(len(text))
        super().load_text(text)

    def _on_paste(self, event: events.Paste) -> None:
        """Before `TextArea._on_paste` inserts the paste (Textual calls each class's handler in turn)."""
        if not self.read_only:
            self._fit_language(len(self.text) + len(event.text))

    def on_resize(self) -> None:
        """A wider editor (f3, a bigger terminal) keeps no horizontal scroll it no longer needs: the
        view goes back to the lines' start and scrolls only as far as the cursor needs."""
        self.call_after_refresh(self._scroll_from_the_left)

    def _scroll_from_the_left(self) -> None:
        if self.scroll_x:
            self.scroll_to(x=0, animate=False, immediate=True)
            self.scroll_cursor_visible()

    def on_text_area_changed(self, event: TextArea.Changed) -> None:
        if self._language_for_size is not None:  # shortened far enough to highlight again?
            self._fit_language(len(self.text))

    def _fit_language(self, size: int) -> None:
        """Plain text for code of `size` characters over the limit (before it is parsed), the
        language back once it is within it."""
        selection = self.selection  # a new document starts at the top; the cursor stays where it was
        if size > HIGHLIGHT_LIMIT and self.language is not None:
            self._language_for_size = self.language
            self.language = None
            self.notify(f"Over {HIGHLIGHT_LIMIT:,} characters: the code is shown without highlighting.",
                        timeout=6)
        elif size <= HIGHLIGHT_LIMIT and self._language_for_size is not None:
            self.language, self._language_for_size = self._language_for_size, None
        else:
            return
        self.selection = selection

    def indent_after(self, line: str) -> str:
        """The indentation a new line gets after `line` (the text left of the cursor)."""
        indent = line[: len(line) - len(line.lstrip(" \t"))]
        if line.split("#", 1)[0].rstrip().endswith(":"):
            indent += "\t" if self.indent_type == "tabs" else " " * self.indent_width
        return indent

    def dedent_span(self) -> tuple[tuple[int, int], tuple[int, int]] | None:
        """What Backspace removes when the cursor sits in a line's leading spaces: back to the previous
        indent stop (one level), else None (Backspace removes one character as usual)."""
        start, end = self.selection
        if start != end or self.indent_type != "spaces":
            return None
        row, column = end
        left = self.document[row][:column]
        if not left or left.strip(" "):
            return None
        width = max(1, self.indent_width)
        return (row, column - (column % width or width)), (row, column)

    async def _on_key(self, event: events.Key) -> None:
        if not INDENT_KEYS:  # Textual's own handler follows (it calls each class's in turn)
            return
        if event.key == "backspace" and not self.read_only and (span := self.dedent_span()) is not None:
            event.stop()
            event.prevent_default()
            self._restart_blink()
            self._replace_via_keyboard("", *span)
            return
        if event.key == "enter" and not self.read_only:
            event.stop()
            event.prevent_default()
            self._restart_blink()
            start, end = self.selection
            row, column = min(start, end)
            self._replace_via_keyboard("\n" + self.indent_after(self.document[row][:column]), start, end)
            return
        await super()._on_key(event)
