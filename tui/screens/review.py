"""`ReviewScreen`: flashcard review — the front, space reveals the back, 1-4 rate with the next
interval on each button (as Anki shows it), u undoes, l switches English/Chinese (saved in the
`language` setting). Every rating is committed to the store as it is given.

Opened with `card_ids`, it reviews exactly those cards (the checker's "review this card now") and
then returns; otherwise it follows the scheduler's due queue, then (on the last day before the
interview) the study plan's cards: a mock's queued "study next" and, on the last day before the
interview, the top-up. When nothing is due, `a` practises ahead: a preview of the cards
with the lowest predicted recall on the interview day, whose ratings are not recorded, so their
schedules stay as they are (Anki's preview); `w` opens the drill with the lowest recall on the day
the same way (its checks change no schedule). Previews are only logged
(`cards.schedule.preview`).
"""
from __future__ import annotations

import time

from rich.markup import escape
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Rule, Static

from cards.schedule.intervals import RATING_NAMES, format_interval
from tui.widgets.footer import KeyFooter
from tui.widgets.markdown_text import MarkdownText
from tui.widgets.rating_bar import RatingBar
from tui.widgets.textual_guards import Header

PROMPT = "Press [b]space[/b] to show the answer"


class ReviewScreen(Screen):
    """Front, reveal, rate 1-4 (intervals on the buttons), undo, language; see the module docstring."""

    BINDINGS = [
        Binding("space", "reveal", "Show answer", tooltip="show the answer"),
        Binding("1", "rate(1)", "Again", tooltip="Again: you did not know it (it comes back soon)"),
        Binding("2", "rate(2)", "Hard", tooltip="Hard: you knew it, with effort"),
        Binding("3", "rate(3)", "Good", tooltip="Good: you knew it"),
        Binding("4", "rate(4)", "Easy", tooltip="Easy: you knew it at once"),
        Binding("u", "undo", "Undo", tooltip="undo the last rating"),
        Binding("a", "practise_ahead", "Practise ahead",
                tooltip="when nothing is due: practise ahead (a preview; ratings are not recorded)"),
        Binding("w", "drill_ahead", "Drill ahead", tooltip="when nothing is due: practise ahead on the drill "
                "of lowest recall (its checks change no schedule)"),
        Binding("l", "language", "中文/EN", tooltip="English / 中文 (remembered)"),
        Binding("escape", "app.pop_screen", "Back", tooltip="back"),
    ]

    def __init__(self, card_ids: list[str] | None = None) -> None:
        super().__init__()
        self.card_ids = list(card_ids) if card_ids else None
        self.preview_ids: list[str] | None = None  # practising ahead: ratings are not recorded
        self.topped_up: set[str] = set()  # top-up cards shown in this visit
        self.drills_previewed: list[str] = []  # drills opened ahead in this visit, not offered again
        self._offered_drills: list[str] = []  # the drills the empty screen offers to practise ahead
        self._from_plan = False  # the card shown comes from the plan, not the due queue
        self.card = None
        self.revealed = False
        self.done = 0
        self._shown_at = 0.0
        self._last = ""

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="review-meta")
        with VerticalScroll(id="review-card"):
            yield MarkdownText(id="review-front")
            yield Rule(id="review-rule")
            yield MarkdownText(id="review-back")
        yield Static(PROMPT, id="review-prompt")
        yield RatingBar(id="review-rating")
        yield KeyFooter()

    def on_mount(self) -> None:
        for button in self.query("RatingBar Button"):
            button.can_focus = False  # keys 1-4 and space belong to the screen
        self.next_card()

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        """Show "Show answer" while the front is up and the ratings once the back is."""
        if action == "reveal":
            return self.card is not None and not self.revealed
        if action == "rate":
            return self.card is not None and self.revealed
        if action == "practise_ahead":
            return self.card is None and self.card_ids is None and self.preview_ids is None
        if action == "drill_ahead":  # the list shown on the empty screen (not recomputed per refresh)
            return self.card is None and self.card_ids is None and bool(self._offered_drills)
        if action == "undo":  # only once this session has rated something
            return self.preview_ids is None and self.scheduler is not None and self.scheduler.can_undo
        return True

    @property
    def scheduler(self):
        return self.app.session.scheduler

    def _queue_card(self):
        if self.card_ids is not None:
            return self.scheduler.deckset.by_id.get(self.card_ids[0]) if self.card_ids else None
        if self.preview_ids is not None:
            return self.scheduler.deckset.by_id.get(self.preview_ids[0]) if self.preview_ids else None
        card = self.scheduler.next_card()
        self._from_plan = card is None
        if card is None:  # the plan's study-next cards and last-day top-up, each once a visit
            card = self.app.session.next_plan_card(exclude=self.topped_up)
            if card is not None:
                self.topped_up.add(card.id)
        return card

    def next_card(self) -> None:
        """Show the next card's front, or say there is nothing (left) to review."""
        session = self.app.session
        if session.store is None:
            self._empty(f"**Progress is not available**, so cards cannot be scheduled.\n\n"
                        f"{session.store_error}")
            return
        self.card = self._queue_card()
        self.revealed = False
        if self.card is None:
            nxt = "" if self.card_ids is not None else self._next_due_text()
            self._empty(f"## {'Done' if self.done else 'No cards due'}\n\n"
                        f"{self.done} reviewed this session. {nxt}{self._ahead_text()}\n\n"
                        f"Press **escape** to go back.")
            return
        lang = session.language
        front, back = self.card.text(lang)
        self.query_one("#review-front", MarkdownText).update_markdown(front)
        self.query_one("#review-back", MarkdownText).update_markdown(back)
        self._show(back=False)
        self._meta()
        self._shown_at = time.monotonic()

    def _next_due_text(self) -> str:
        states = self.app.session.store.card_states()
        if not states:
            return ""
        when = min(due for due, _ in states.values())
        return f"Next card due in {format_interval(when - self.scheduler.now())}."

    def _ahead_text(self) -> str:
        self._offered_drills = []
        if self.card_ids is not None:
            return ""
        when = "on the interview day" if self.app.session.interview_date() else "now"
        text = ""
        if self.preview_ids is None:
            cards, _ = self.app.session.practise_ahead()
            if cards:
                text += (f"\n\nPress **a** to practise ahead: {len(cards)} card{'s' if len(cards) != 1 else ''} "
                         f"with the lowest predicted recall {when}, as a preview (your ratings are not "
                         f"recorded, so their schedules stay as they are).")
        drills = self._offered_drills = self._drills_ahead()
        if drills:
            more = f", then {', '.join(drills[1:4])}" if len(drills) > 1 else ""
            text += (f"\n\nPress **w** to practise ahead on a drill: **{drills[0]}** (lowest recall {when}"
                     f"{more}), as a preview (its checks do not change its schedule).")
        return text

    def _drills_ahead(self) -> list[str]:
        if self.app.session is None or self.app.session.store is None:
            return []
        return [d for d in self.app.session.practise_ahead()[1] if d not in self.drills_previewed]

    def action_drill_ahead(self) -> None:
        if self.card is not None or self.card_ids is not None:
            return
        drills = self._drills_ahead()
        if not drills:
            self.notify("No drill to practise ahead: every tried drill is due or never tried.")
            return
        self.drills_previewed.append(drills[0])
        self.app.open_drill(drills[0], preview=True)

    def on_screen_resume(self) -> None:
        if self.card is None:
            self.next_card()

    def action_practise_ahead(self) -> None:
        if self.card is not None or self.card_ids is not None or self.preview_ids is not None:
            return
        cards, _ = self.app.session.practise_ahead()
        if not cards:
            self.notify("Nothing to practise ahead yet: every studied card is due or new.")
            return
        self.preview_ids = cards
        self.done = 0
        self.next_card()

    def _empty(self, text: str) -> None:
        self.card = None
        self.query_one("#review-front", MarkdownText).update_markdown(text)
        self._show(back=False, prompt=False)
        self.query_one("#review-meta", Static).update(escape(self._last))

    def _show(self, back: bool, prompt: bool = True) -> None:
        self.refresh_bindings()
        self.query_one("#review-back").display = back
        self.query_one("#review-rule").display = back
        self.query_one("#review-rating").display = back
        self.query_one("#review-prompt").display = prompt and not back

    def _meta(self) -> None:
        session = self.app.session
        deck = session.deckset.by_deck[self.card.deck].display_title(session.language)
        if self.card_ids is not None:
            left = f"{len(self.card_ids)} to review"
        elif self.preview_ids is not None:
            left = f"Practising ahead: {len(self.preview_ids)} left, schedules unchanged"
        elif self._from_plan:
            left = "Today's plan: study next / top-up"
        else:
            # the dashboard's words: cards due now (learning and review) and new cards for today
            queue = self.scheduler.queue()
            seen = self.scheduler.store.card_states()
            due = sum(1 for card in queue if card.id in seen)
            left = f"{due} due · {len(queue) - due} new"
        lang = "中文" if session.language == "zh" else "EN"
        if self.preview_ids is not None or self._from_plan:
            # why this card is shown comes first: long deck titles are cut at 80 columns
            text = f"[b]{escape(left)}[/b] · {escape(self.card.id)} · {escape(deck)}"
        else:
            text = f"[b]{escape(deck)}[/b] · {escape(self.card.id)} · {left} · {lang}"
        self.query_one("#review-meta", Static).update(text)
        # what the last rating did, under the prompt of the next card: at 80 columns the header has no
        # room left for it
        self.query_one("#review-prompt", Static).update(
            PROMPT + (f"\n[dim]{escape(self._last)}[/dim]" if self._last else ""))

    def action_reveal(self) -> None:
        if self.card is None or self.revealed:
            return
        self.revealed = True
        self._label_ratings()
        self._show(back=True)
        self.query_one("#review-card").scroll_home(animate=False)

    def _label_ratings(self) -> None:
        """The rating buttons' names (in the review's language) and intervals for the card shown."""
        now = self.scheduler.now()
        bar = self.query_one(RatingBar)
        lang = self.app.session.language
        if self.preview_ids is not None:  # no interval: the rating changes nothing
            bar.show_preview({r: now for r in RATING_NAMES}, now, note="预览" if lang == "zh" else "preview",
                             lang=lang)
        else:
            bar.show_preview(self.scheduler.preview(self.card.id, now), now, fuzz=self.app.session.fuzz,
                             lang=lang)

    def action_rate(self, rating: int) -> None:
        if self.card is None or not self.revealed:
            return
        if self.preview_ids is not None:  # a preview: nothing is recorded
            self.done += 1
            self._last = f"{self.card.id}: {RATING_NAMES[rating]} (preview, schedule unchanged)"
            self.app.session.record_preview("card", self.card.id, rating=rating)
            self.preview_ids.pop(0)
            self.next_card()
            return
        duration_ms = int((time.monotonic() - self._shown_at) * 1000)
        outcome = self.scheduler.review(self.card.id, rating, duration_ms=duration_ms)
        self.done += 1
        self._last = (f"{self.card.id}: {RATING_NAMES[rating]}, due in "
                      f"{format_interval(outcome.due - outcome.reviewed_at)}")
        if self.card_ids is not None:
            self.card_ids.pop(0)
        self.next_card()

    @on(RatingBar.Rated)
    def _rated(self, event: RatingBar.Rated) -> None:
        self.action_rate(event.rating)

    def action_undo(self) -> None:
        if self.scheduler is None:
            return
        card_id = self.scheduler.undo_last()
        if card_id is None:
            self.notify("Nothing to undo.")
            return
        self.done = max(0, self.done - 1)  # the rating undone may be from an earlier visit
        self._last = f"undone: {card_id}"
        if self.card_ids is not None:
            self.card_ids.insert(0, card_id)
            self.next_card()
            return
        self.card = self.scheduler.deckset.by_id.get(card_id)
        if self.card is None:
            self.next_card()
            return
        # show the undone card again, front first, whatever the queue says
        self._from_plan = False
        front, back = self.card.text(self.app.session.language)
        self.query_one("#review-front", MarkdownText).update_markdown(front)
        self.query_one("#review-back", MarkdownText).update_markdown(back)
        self.revealed = False
        self._show(back=False)
        self._meta()
        self._shown_at = time.monotonic()

    def action_language(self) -> None:
        session = self.app.session
        session.set_language("en" if session.language == "zh" else "zh")
        if self.card is None:
            self.next_card()
            return
        front, back = self.card.text(session.language)
        self.query_one("#review-front", MarkdownText).update_markdown(front)
        self.query_one("#review-back", MarkdownText).update_markdown(back)
        self._meta()
        if self.revealed:
            self._label_ratings()
