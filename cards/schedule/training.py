"""What a checked drill attempt does to a candidate's training plan (the loop that ties drills to
cards): the attempt is recorded, every named mistake sends its card back as an Again review made by the
checker, and the drill itself is rated on its own FSRS schedule (passed within target = Good, passed
late = Hard, failed = Again), so drills are spaced like cards, but in days from the first attempt (`drill_schedule`),
and once per sitting: the checks of a drill within `DrillSchedule.SITTING` are one review, rated by their best.

Called by the app and by `ppo-drill check` / `watch` (through `tui.cli`'s hook); the checker itself
knows nothing of progress.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

import fsrs

from cards.decks.loader import load_decks
from cards.progress.store import ProgressStore
from cards.schedule.mastery import code_key
from cards.schedule.preview import record_preview
from cards.schedule.scheduler import DrillSchedule, Scheduler, utc_now

AGAIN, HARD, GOOD = 1, 2, 3


@dataclass
class AttemptOutcome:
    """What recording a checked attempt did. A preview (`preview` True) has no attempt row
    (`attempt_id` None), no rating, no cards sent back and no new due date."""

    attempt_id: int | None
    drill_rating: int | None
    cards_again: list[str] = field(default_factory=list)
    drill_due: datetime | None = None
    preview: bool = False


def drill_rating(passed: bool, elapsed_s: float | None, target_minutes: int | None,
                 share: float | None = None) -> int:
    """Good when passed within the target time, Hard when passed late, Again when failed. A test file
    that caught at least three quarters of the known bugs without a false alarm fails as Hard, not
    Again: the schedule follows the share caught."""
    if not passed:
        return HARD if share is not None and share >= 0.75 else AGAIN
    if elapsed_s is None or target_minutes is None or elapsed_s <= target_minutes * 60:
        return GOOD
    return HARD


def drill_schedule(store: ProgressStore, clock=None, fuzz: bool = True):
    """A `cards.schedule.scheduler.DrillSchedule` whose intervals start at days, not minutes.

    FSRS's default learning steps (1 and 10 minutes) suit a card recalled in seconds; a drill is
    a 2-15 minute exercise, and "due again in 10 minutes" right after solving it would fill the
    dashboard's "drills due" list with drills just done. Without the steps a first Good is due in
    2 days, Hard or Again in 1 day; later reviews follow FSRS's stability as for cards. States
    written with the default steps are read unchanged (a learning drill graduates on its next
    review).
    """
    schedule = DrillSchedule(store, clock=clock or utc_now, fuzz=fuzz)
    schedule.fsrs = fsrs.Scheduler(learning_steps=(), relearning_steps=(), enable_fuzzing=fuzz)
    return schedule


def record_check(store: ProgressStore, *, drill_id: str, framework: str, passed: bool,
                 mistakes: list[tuple[str, str | None]], started_at: datetime, finished_at: datetime,
                 elapsed_s: float | None = None, target_minutes: int | None = None, code: str = "",
                 source: str = "app", scheduler=None, fuzz: bool = True,
                 caught_share: float | None = None, preview: bool = False) -> AttemptOutcome:
    """Record one checked attempt and apply it to the schedules.

    With `preview` (practising ahead on a drill that is not due) nothing reaches the schedules: no
    attempt row, no card sent back, no new rating or due date for the drill; only the preview log
    (`cards.schedule.preview`) keeps that it was done, passed or not, and what was named.

    `mistakes` are (mistake id, related card id) pairs from the checker's diagnoses. A card already
    sent back by the checker within the last 12 hours is not sent back again, so re-running a wrong
    answer does not flood the review queue. `scheduler` is a `cards.schedule.scheduler.Scheduler` (created over
    the shipped decks when None). `caught_share` is, for a graded test file, the share of the known bugs
    its tests caught (0 with a false alarm; the checker's `TestGrade.caught_share`), which sets the rating
    of a failed attempt; None for an answer.
    """
    if preview:
        record_preview(store, "drill", drill_id, finished_at, passed=passed,
                       mistakes=[m for m, _ in mistakes], framework=framework, code_key=code_key(code))
        return AttemptOutcome(None, None, [], None, preview=True)
    attempt_id = store.record_attempt(drill_id, framework=framework, started_at=started_at,
                                      finished_at=finished_at, passed=passed, elapsed_s=elapsed_s,
                                      mistakes=[m for m, _ in mistakes], code=code, source=source)
    cards_again: list[str] = []
    card_ids = [c for _, c in mistakes if c]
    if card_ids:
        if scheduler is None:
            scheduler = Scheduler(store, load_decks(), clock=lambda: finished_at, fuzz=fuzz)
        recent = {r.card_id for r in store.reviews(since=finished_at - timedelta(hours=12))
                  if r.source == "checker"}
        for card_id in dict.fromkeys(card_ids):
            if card_id in scheduler.deckset.by_id and card_id not in recent:
                scheduler.mark_again(card_id, now=finished_at, source="checker")
                cards_again.append(card_id)
    rating = drill_rating(passed, elapsed_s, target_minutes, caught_share)
    due = drill_schedule(store, clock=lambda: finished_at, fuzz=fuzz).record(drill_id, rating, now=finished_at)
    return AttemptOutcome(attempt_id, rating, cards_again, due)
