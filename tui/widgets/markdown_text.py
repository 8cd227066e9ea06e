"""`MarkdownText`: Markdown drawn by Rich inside one Static.

Textual's `Markdown` widget builds a widget per block (a drill prompt is hundreds of them, most of
a second to open the workspace); long read-only text needs none of that, so the prompt and hints
use this, and `source` keeps the text for whoever asks what is shown.
"""
from __future__ import annotations

from rich.markdown import Markdown as RichMarkdown
from textual.widgets import Static


class MarkdownText(Static):
    DEFAULT_CSS = "MarkdownText { padding: 0 1; }"

    def __init__(self, source: str = "", **kwargs) -> None:
        super().__init__(self._render_md(source), **kwargs)
        self.source = source

    @staticmethod
    def _render_md(source: str) -> RichMarkdown:
        return RichMarkdown(source, code_theme="monokai", hyperlinks=False)

    def update_markdown(self, source: str) -> None:
        self.source = source
        self.update(self._render_md(source))
