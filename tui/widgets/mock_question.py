"""`MockQuestion`: a follow-up question of a mock interview: the card's front, a box to type an answer
in (optional: answering aloud is the interview's way), and the card's answer, hidden until revealed.

Once revealed the typed answer is frozen (read-only), so a self-grade is always against what was
answered before seeing the card, and the view scrolls to the revealed answer; the grading itself is the
screen's and the session's."""
from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static, TextArea

from tui.widgets.markdown_text import MarkdownText


class MockQuestion(VerticalScroll):
    """The question, the typed answer and the (hidden) card answer."""

    DEFAULT_CSS = """
    MockQuestion { padding: 1 2; }
    MockQuestion #question-notes { height: 6; margin-top: 1; }
    MockQuestion #question-answer { display: none; margin-top: 1; }
    MockQuestion #question-answer.-shown { display: block; }
    """

    def compose(self) -> ComposeResult:
        yield MarkdownText("", id="question-front")
        yield Static("Answer aloud, or press [b]t[/b] and type. Then [b]ctrl+r[/b] (or "
                     "[b]space[/b]) reveals the card's answer; grade yourself [b]1[/b] missed, "
                     "[b]2[/b] partly, [b]3[/b] knew it (as Again / Hard / Good in a card review).",
                     id="question-help")
        yield TextArea("", id="question-notes", soft_wrap=True)
        yield MarkdownText("", id="question-answer")

    @property
    def notes(self) -> TextArea:
        """The candidate's typed answer."""
        return self.query_one("#question-notes", TextArea)

    def show(self, index: int, front: str, back: str, card_id: str) -> None:
        """Show question number `index` (0-based) with its answer hidden and an empty answer box."""
        self.query_one("#question-front", MarkdownText).update_markdown(f"## {index + 1}. Question\n\n{front}")
        answer = self.query_one("#question-answer", MarkdownText)
        answer.update_markdown(f"### The card's answer\n\n{back}\n\n*card {card_id}*")
        answer.remove_class("-shown")
        self.notes.load_text("")
        self.notes.read_only = False
        self.focus()

    def reveal(self) -> None:
        """Show the card's answer and freeze the typed one; focus moves here so 1 / 2 / 3 grade
        instead of typing."""
        self.notes.read_only = True
        answer = self.query_one("#question-answer", MarkdownText)
        answer.add_class("-shown")
        self.focus()
        # the answer lies below the question and the typed answer: bring it to the top of the view (at
        # 80x24 it would otherwise start off screen, or show only its heading)
        self._scroll_tries = 0
        self.call_after_refresh(self._scroll_to_answer)

    def _scroll_to_answer(self) -> None:
        """Scroll the revealed answer to the top; the layout may take a few refreshes, so try
        again until it is there (or the view cannot scroll further)."""
        answer = self.query_one("#question-answer", MarkdownText)
        if not answer.has_class("-shown"):
            return
        self.scroll_to_widget(answer, animate=False, top=True)
        at_top = answer.region.y <= self.region.y + 1 or self.scroll_y >= self.max_scroll_y > 0
        self._scroll_tries += 1
        if not at_top and self._scroll_tries < 10:
            self.set_timer(0.05, self._scroll_to_answer)
