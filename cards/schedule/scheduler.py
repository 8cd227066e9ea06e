"""FSRS scheduling over a deck set and the progress store: `Scheduler`, `DrillSchedule`,
`DeckCounts`, `ReviewOutcome`.

The intervals are exactly those of the `fsrs` package (the scheduler Anki uses); this module adds
what a study session needs around it: the Anki-ordered due queue with a new-cards-per-day limit,
interval previews for the rating buttons, undo, per-deck counts, and a second use of the same
FSRS over drill ids.

Day boundary: a study day is a UTC calendar day (00:00 UTC). It only affects the new-card
allowance; FSRS itself works on exact times.
"""
from __future__ import annotations

import zlib
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Iterable

import fsrs

from cards.decks.loader import Card, DeckSet
from cards.progress.schema import Clock, utc_now  # the one clock; callers here take it from this module too
from cards.progress.store import ProgressStore

LEARNING_STATES = (int(fsrs.State.Learning), int(fsrs.State.Relearning))
REVIEW_STATES = (int(fsrs.State.Review),)
LEARN_AHEAD = timedelta(minutes=20)  # Anki's default "learn ahead limit"
DEFAULT_NEW_PER_DAY = 20  # Anki's default
NEW_PER_DAY_SETTING = "new_per_day"


def _utc(when: datetime) -> datetime:
    if when.tzinfo is None:
        raise ValueError(f"datetime must be timezone-aware: {when!r}")
    return when.astimezone(timezone.utc)  # fsrs insists on tzinfo == timezone.utc


def day_start(now: datetime) -> datetime:
    """Start of the study day containing `now` (00:00 UTC)."""
    return _utc(now).replace(hour=0, minute=0, second=0, microsecond=0)


def _fsrs_id(key: str) -> int:
    """A stable integer for fsrs.Card (whose own default id sleeps 1 ms and depends on time)."""
    return zlib.crc32(key.encode("utf-8"))


def _sitting(state: dict | None, now: datetime, length: timedelta):
    """(start, state before it, best rating so far) of the sitting `now` belongs to, or (None, None,
    None) when it starts a new one: no sitting recorded, one that began more than `length` before
    `now` (or after it), or one that cannot be read back (an edited or foreign export)."""
    sitting = state.get("sitting") if isinstance(state, dict) else None
    if not isinstance(sitting, dict):
        return None, None, None
    try:
        started = _utc(datetime.fromisoformat(sitting["started"]))
        best = fsrs.Rating(int(sitting["rating"]))
        before = sitting["before"]
        if before is not None:
            fsrs.Card.from_dict(before)
    except (KeyError, TypeError, ValueError):
        return None, None, None
    if not started <= now < started + length:
        return None, None, None
    return started, before, best


def _check_rating(rating: int) -> fsrs.Rating:
    if rating not in (1, 2, 3, 4):
        raise ValueError(f"rating must be 1 (Again), 2 (Hard), 3 (Good) or 4 (Easy), got {rating!r}")
    return fsrs.Rating(int(rating))


@dataclass(frozen=True)
class DeckCounts:
    """What a deck has for today: `new` cards that would be shown (within the daily allowance),
    `learning` and `review` cards due now, `unseen` (never studied) and `total` cards."""

    new: int
    learning: int
    review: int
    unseen: int = 0
    total: int = 0


@dataclass(frozen=True)
class ReviewOutcome:
    """The result of one recorded review."""

    review_id: int
    card_id: str
    rating: int
    reviewed_at: datetime
    due: datetime
    state: int


class Scheduler:
    """Study session logic for a deck set on top of a `ProgressStore`.

    `clock` is injected so tests (and replays) are deterministic; `fuzz=False` gives exactly the
    unfuzzed FSRS intervals. `new_per_day` defaults to the store's `new_per_day` setting, else 20. Cards whose state exists but who left the decks keep their history
    and are simply not queued.
    """

    def __init__(self, store: ProgressStore, deckset: DeckSet, clock: Clock = utc_now,
                 fuzz: bool = True, new_per_day: int | None = None,
                 learn_ahead: timedelta = LEARN_AHEAD) -> None:
        self.store = store
        self.deckset = deckset
        self.clock = clock
        if new_per_day is None:  # the user's setting, shared by the app and the CLI
            new_per_day = int(store.get_setting(NEW_PER_DAY_SETTING, DEFAULT_NEW_PER_DAY))
        self.new_per_day = new_per_day
        self.learn_ahead = learn_ahead
        self.fsrs = fsrs.Scheduler(enable_fuzzing=fuzz)
        self._preview = fsrs.Scheduler(enable_fuzzing=False)
        self._undo: list[int] = []
        self._known: tuple[tuple[int, int], set[str]] | None = None

    def now(self) -> datetime:
        """The scheduler's clock, in UTC."""
        return _utc(self.clock())

    def _now(self, now: datetime | None) -> datetime:
        return _utc(now if now is not None else self.clock())

    def _known_ids(self) -> set[str]:
        token = self.store.change_token()
        if self._known is None or self._known[0] != token:
            self._known = (token, self.store.known_card_ids())
        return self._known[1]

    def _in(self, card_id: str, deck: str | None) -> bool:
        card = self.deckset.by_id.get(card_id)
        return card is not None and (deck is None or card.deck == deck)

    def new_remaining(self, now: datetime | None = None) -> int:
        """How many new cards may still be introduced today."""
        now = self._now(now)
        return max(0, self.new_per_day - self.store.new_cards_since(day_start(now)))

    def _new_ids(self, deck: str | None, limit: int) -> Iterable[str]:
        if limit <= 0:
            return
        known = self._known_ids()
        for card in self.deckset.cards:
            if card.id not in known and (deck is None or card.deck == deck):
                yield card.id
                limit -= 1
                if limit == 0:
                    return

    def queue(self, now: datetime | None = None, deck: str | None = None) -> list[Card]:
        """Cards to study now, in Anki's order: due learning/relearning cards by due time, then
        due review cards by due date, then new cards in deck order up to today's allowance. If
        that is empty, learning cards due within the learn-ahead limit (20 min) are offered."""
        now = self._now(now)
        ids = [cid for cid, _ in self.store.iter_due(now, LEARNING_STATES) if self._in(cid, deck)]
        ids += [cid for cid, _ in self.store.iter_due(now, REVIEW_STATES) if self._in(cid, deck)]
        ids += list(self._new_ids(deck, self.new_remaining(now)))
        if not ids:
            ids = [cid for cid, _ in self.store.iter_due(now + self.learn_ahead, LEARNING_STATES)
                   if self._in(cid, deck)]
        return [self.deckset.by_id[cid] for cid in ids]

    def next_card(self, now: datetime | None = None, deck: str | None = None) -> Card | None:
        """The first card of `queue()`, computed without building the whole queue."""
        now = self._now(now)
        for states, when in ((LEARNING_STATES, now), (REVIEW_STATES, now)):
            for cid, _ in self.store.iter_due(when, states):
                if self._in(cid, deck):
                    return self.deckset.by_id[cid]
        for cid in self._new_ids(deck, min(1, self.new_remaining(now))):
            return self.deckset.by_id[cid]
        for cid, _ in self.store.iter_due(now + self.learn_ahead, LEARNING_STATES):
            if self._in(cid, deck):
                return self.deckset.by_id[cid]
        return None

    def _fsrs_card(self, card_id: str, state: dict | None, now: datetime) -> fsrs.Card:
        if state is None:
            return fsrs.Card(card_id=_fsrs_id(card_id), due=now)
        return fsrs.Card.from_dict(state)

    def preview(self, card_id: str, now: datetime | None = None) -> dict[int, datetime]:
        """The due time each rating 1-4 would give now (unfuzzed), for the rating buttons."""
        now = self._now(now)
        card = self._fsrs_card(card_id, self.store.card_state(card_id), now)
        return {int(r): self._preview.review_card(card, r, now)[0].due for r in fsrs.Rating}

    def review(self, card_id: str, rating: int, duration_ms: int = 0, now: datetime | None = None,
               source: str = "user") -> ReviewOutcome:
        """Rate a card and commit the review at once (state read and written under one lock)."""
        if card_id not in self.deckset.by_id:
            raise KeyError(f"unknown card id {card_id!r}")
        fsrs_rating = _check_rating(rating)
        now = self._now(now)
        token = self.store.change_token()
        with self.store.transaction():
            before = self.store.card_state(card_id)
            after, _ = self.fsrs.review_card(self._fsrs_card(card_id, before, now), fsrs_rating,
                                             now, int(duration_ms))
            review_id = self.store.record_review(card_id, int(rating), now, after.to_dict(),
                                                 state_before=before, duration_ms=duration_ms,
                                                 source=source)
        self._undo.append(review_id)
        self._note_reviewed(card_id, token)
        return ReviewOutcome(review_id, card_id, int(rating), now, after.due, int(after.state))

    def _note_reviewed(self, card_id: str, token: tuple[int, int]) -> None:
        """Keep the known-ids cache valid across our own write (a reload of 10,000 ids would
        cost milliseconds per review); any other writer's commit still forces a reload."""
        if self._known is None or self._known[0] != token:
            return
        after = self.store.change_token()
        if after == (token[0] + 1, token[1]):
            self._known[1].add(card_id)
            self._known = (after, self._known[1])
        else:
            self._known = None

    def mark_again(self, card_id: str, now: datetime | None = None,
                   source: str = "checker") -> ReviewOutcome:
        """Rate a card Again on someone's behalf (the checker naming a mistake); logged with
        `source` so history shows why."""
        return self.review(card_id, 1, now=now, source=source)

    @property
    def can_undo(self) -> bool:
        """Whether this session has a review left to undo."""
        return bool(self._undo)

    def undo_last(self) -> str | None:
        """Undo this session's latest review, restoring the card's exact prior state; returns
        the card id, or None if there is nothing (left) to undo."""
        self._known = None  # the card may be new again
        while self._undo:
            card_id = self.store.undo_review(self._undo.pop())
            if card_id is not None:
                return card_id
        return None

    def counts(self, now: datetime | None = None) -> dict[str, DeckCounts]:
        """Per-deck counts for today, decks in deck order. `new` is each deck's unseen cards
        capped by today's remaining allowance, as Anki shows it per deck."""
        now = self._now(now)
        states = self.store.card_states()
        remaining = self.new_remaining(now)
        result: dict[str, DeckCounts] = {}
        for deck in self.deckset.decks:
            unseen = learning = review = 0
            for card in deck.cards:
                st = states.get(card.id)
                if st is None:
                    unseen += 1
                elif st[0] <= now:
                    if st[1] in LEARNING_STATES:
                        learning += 1
                    else:
                        review += 1
            result[deck.id] = DeckCounts(min(unseen, remaining), learning, review, unseen,
                                         len(deck.cards))
        return result


class DrillSchedule:
    """The same FSRS over drill ids: a drill's outcome is rated like a card, so drills come back
    when they are due, as cards do.

    A drill is worked on in sittings: a candidate checks, fixes, checks again until it passes, and a
    card is recalled once. So all the ratings of one drill within `SITTING` of the sitting's first are
    one FSRS review, rated by the sitting's best outcome: each re-rates the drill from its state before
    the sitting (kept beside the FSRS state, under "sitting"). Five failed checks and a pass are one
    pass, not five lapses that leave the drill at the highest difficulty.

    State lives in the store's drill table; no review log beyond the drill attempts themselves.
    """

    #: How long after a sitting's first rating a drill's ratings still belong to that sitting.
    SITTING = timedelta(hours=3)

    def __init__(self, store: ProgressStore, clock: Clock = utc_now, fuzz: bool = True) -> None:
        self.store = store
        self.clock = clock
        self.fsrs = fsrs.Scheduler(enable_fuzzing=fuzz)

    def record(self, drill_id: str, rating: int, now: datetime | None = None) -> datetime:
        """Rate a drill (1 Again .. 4 Easy) in its current sitting (or a new one); returns when it is
        next due."""
        fsrs_rating = _check_rating(rating)
        now = _utc(now if now is not None else self.clock())
        with self.store.transaction():
            state = self.store.drill_state(drill_id)
            started, before, best = _sitting(state, now, self.SITTING)
            if started is None:  # a new sitting, from the state as it stands
                started, best = now, fsrs_rating
                before = {k: v for k, v in state.items() if k != "sitting"} if state is not None else None
            else:
                best = fsrs.Rating(max(int(best), int(fsrs_rating)))
            card = fsrs.Card.from_dict(before) if before is not None else fsrs.Card(card_id=_fsrs_id(drill_id),
                                                                                   due=started)
            after, _ = self.fsrs.review_card(card, best, now)
            written = after.to_dict()
            written["sitting"] = {"started": started.isoformat(), "rating": int(best), "before": before}
            self.store.set_drill_state(drill_id, written)
        return after.due

    def due(self, now: datetime | None = None, drill_ids: Iterable[str] | None = None) -> list[str]:
        """Drills due at `now`, earliest first; with `drill_ids`, restricted to those, and the
        never-scheduled ones among them follow in the given order."""
        now = _utc(now if now is not None else self.clock())
        states = self.store.drill_states()
        wanted = list(drill_ids) if drill_ids is not None else None
        pool = states if wanted is None else {d: states[d] for d in wanted if d in states}
        due = sorted((when, d) for d, when in pool.items() if when <= now)
        result = [d for _, d in due]
        if wanted is not None:
            result += [d for d in wanted if d not in states]
        return result
