"""`MarkdownText`: Markdown drawn by Rich inside one Static.

Textual's `Markdown` widget builds a widget per block (a drill prompt is hundreds of them, most of
a second to open the workspace); long read-only text needs none of that, so the prompt and hints
use this, and `source` keeps the text for whoever asks what is shown.

Code blocks too wide for the pane (a signature at 80x24) are broken after an opening bracket or a
comma, continuing one indent in, rather than folded mid-name as Rich would.
"""
from __future__ import annotations

import re

from rich.markdown import CodeBlock
from rich.markdown import Markdown as RichMarkdown
from rich.syntax import Syntax
from textual.widgets import Static

_BREAK = re.compile(r"(?<=[(\[{,])\s*")
_COMMA = re.compile(r"(?<=,)\s*")


def wrap_code_line(line: str, width: int) -> list[str]:
    """`line` in pieces of at most `width` characters where it can be: broken after commas first (a
    break after a bracket inside a formula, `max((` then `V - R)^2, (`, misreads it), then, for a
    piece still too wide, after `(`, `[`, `{` or a comma; continuation lines are indented four spaces
    past the line's own indent (an indent deeper than a quarter of the width is cut to that, since it
    no longer lines anything up). A piece with no break point in it stays whole (Rich then folds it)."""
    if len(line) <= width or width < 12:
        return [line]
    return [piece for part in _wrap(line, width, _COMMA)
            for piece in ([part] if len(part) <= width else _wrap(part, width, _BREAK))]


def _wrap(line: str, width: int, breaks: re.Pattern) -> list[str]:
    if len(line) <= width:
        return [line]
    own = min(len(line) - len(line.lstrip()), width // 4)
    line = " " * own + line.lstrip()
    indent = " " * (own + 4)
    pieces, current = [], ""
    for part in (p for p in breaks.split(line) if p):
        if current.strip() and len(current + part) > width:
            pieces.append(current.rstrip())
            part = part.lstrip()  # less indent rather than a name folded in two
            current = " " * min(len(indent), max(0, width - len(part.rstrip()))) + part
        else:
            current += part
        if current.endswith(","):
            current += " "
    if current.strip():
        pieces.append(current.rstrip())
    return pieces


class _CodeBlock(CodeBlock):
    def __rich_console__(self, console, options):
        code = str(self.text).rstrip()
        width = options.max_width - 2  # Syntax's padding of 1 on each side
        lines = [piece for line in code.splitlines() for piece in wrap_code_line(line, width)]
        yield Syntax("\n".join(lines), self.lexer_name, theme=self.theme, word_wrap=True, padding=1)


class _Markdown(RichMarkdown):
    elements = {**RichMarkdown.elements, "fence": _CodeBlock, "code_block": _CodeBlock}


class MarkdownText(Static):
    DEFAULT_CSS = "MarkdownText { padding: 0 1; }"

    def __init__(self, source: str = "", **kwargs) -> None:
        super().__init__(self._render_md(source), **kwargs)
        self.source = source

    @staticmethod
    def _render_md(source: str) -> RichMarkdown:
        return _Markdown(source, code_theme="monokai", hyperlinks=False)

    def update_markdown(self, source: str) -> None:
        self.source = source
        self.update(self._render_md(source))
