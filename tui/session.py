"""`Session`: the app's one handle on the core packages — data folder, progress store, decks,
drills, scheduler and clock — so screens never open files or stores themselves and tests inject
a temp folder and a fixed clock in one place.

A progress database that cannot be opened (corrupt, foreign, newer) does not stop the app: the
session keeps `store = None` and `store_error` (the store's own message, which names the file), the
screens say so, and nothing is written to that file. Drafts still save, since they are plain files.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass, field
from datetime import datetime, timezone
from functools import lru_cache
from pathlib import Path

from cards.decks.loader import DeckSet, load_decks
from cards.plan.interview import (
    interview_date,
    plan_cards,
    plan_new_per_day,
    practise_ahead,
    set_interview_date,
    study_plan,
)
from cards.plan.mock_plan import COACHED_SETTING
from cards.progress.schema import (  # the one clock (tui.app takes it from here)
    Clock,
    utc_now,
)
from cards.progress.store import ProgressStore, StoreError, open_store
from cards.schedule.preview import record_preview
from cards.schedule.scheduler import DEFAULT_NEW_PER_DAY, NEW_PER_DAY_SETTING, Scheduler
from cards.schedule.training import record_check
from drills import DrillContentError, load_drills

LANGUAGES = ("en", "zh")


@lru_cache(maxsize=1)
def shipped_decks() -> DeckSet:
    """The shipped decks, parsed once per process (they are read-only content; ~60 ms of YAML)."""
    return load_decks()


@dataclass
class Session:
    """Everything the screens read and write, opened once at start-up."""

    data_dir: Path
    clock: Clock = utc_now
    fuzz: bool = True
    store: ProgressStore | None = None
    store_error: str | None = None
    deckset: DeckSet = field(default_factory=lambda: DeckSet(()))
    drills: list = field(default_factory=list)
    scheduler: object | None = None
    content_errors: list[str] = field(default_factory=list)  # broken content files, named
    # Held by any thread reading the store (the dashboard's worker); `close` takes it too, since
    # closing an SQLite connection under a running query can crash the process.
    io_lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @classmethod
    def open(cls, data_dir: Path, clock: Clock = utc_now, fuzz: bool = True,
             deckset: DeckSet | None = None, drills: list | None = None) -> "Session":
        """Load decks and drills (the shipped ones unless given) and open the store (a
        StoreError is kept, not raised)."""
        content_errors: list[str] = []
        if drills is None:
            try:
                drills = load_drills()
            except DrillContentError as exc:  # a broken drill file: say which, keep the cards usable
                drills = []
                content_errors.append(f"Drills not loaded: {exc}")
        session = cls(Path(data_dir), clock, fuzz, deckset=deckset or shipped_decks(),
                      drills=list(drills))
        content_errors += [f"Card skipped: {err}" for err in session.deckset.errors[:3]]
        session.content_errors = content_errors
        try:
            session.store = open_store(session.data_dir)
        except StoreError as exc:
            session.store_error = str(exc)
        if session.store is not None:
            session.scheduler = Scheduler(session.store, session.deckset, clock=clock, fuzz=fuzz)
            session.apply_plan()
        return session

    # -- the study plan (`cards.plan.interview`) ---------------------------------------------

    def study_plan(self, forecast: bool = True):
        """Today's `cards.plan.interview.StudyPlan` (None without a usable store); the scheduler's
        new-card allowance follows it."""
        if self.store is None:
            return None

        plan = study_plan(self.store, self.deckset, self.drills, self.now(), lang=self.language,
                          forecast=forecast)
        self._apply_new_per_day(plan.new_per_day if plan.mode in ("countdown", "interview-day") else None)
        return plan

    def apply_plan(self) -> None:
        """Set the scheduler's new cards for today from the plan (or the plain setting without one)."""
        if self.store is None:
            return

        self._apply_new_per_day(plan_new_per_day(self.store, self.deckset, self.drills, self.now()))

    def _apply_new_per_day(self, planned: int | None) -> None:
        if self.scheduler is None:
            return

        self.scheduler.new_per_day = (planned if planned is not None else
                                      int(self.store.get_setting(NEW_PER_DAY_SETTING, DEFAULT_NEW_PER_DAY)))

    def interview_date(self):
        """The interview date set in the plan, or None."""
        if self.store is None:
            return None

        return interview_date(self.store)

    def set_interview_date(self, day) -> None:
        """Set (a `date`) or clear (None) the interview date; the new-card allowance follows."""
        if self.store is not None:
            set_interview_date(self.store, day)
            self.apply_plan()

    def next_plan_card(self, exclude=()):
        """The next card today's plan still asks for once the due queue is empty (a mock's queued
        "study next", the last-day top-up) not in `exclude`, or None."""
        if self.store is None:
            return None

        ids = [c for c in plan_cards(self.store, self.deckset, self.drills, self.now()) if c not in exclude]
        return self.deckset.by_id[ids[0]] if ids else None

    def practise_ahead(self, limit: int = 20):
        """(card ids, drill ids) to preview when nothing is due, lowest recall on the day first."""
        if self.store is None:
            return [], []

        return practise_ahead(self.store, self.deckset, self.drills, self.now(), limit)

    @property
    def coached_mocks(self) -> bool:
        """True when mocks keep the coached behaviour (the checker names the mistake during the mock)."""
        return bool(self.store.get_setting(COACHED_SETTING, False)) if self.store is not None else False

    def set_coached_mocks(self, coached: bool) -> None:
        if self.store is not None:
            self.store.set_setting(COACHED_SETTING, bool(coached))

    def now(self) -> datetime:
        return self.clock().astimezone(timezone.utc)

    def drill(self, drill_id: str):
        return next(d for d in self.drills if d.id == drill_id)

    @property
    def language(self) -> str:
        """"en" or "zh", the card and prompt language (the `language` setting)."""
        if self.store is None:
            return "en"
        value = self.store.get_setting("language", "en")
        return value if value in LANGUAGES else "en"

    def set_language(self, lang: str) -> None:
        if self.store is not None:
            self.store.set_setting("language", lang)

    def record_preview(self, kind: str, ref: str, **outcome) -> None:
        """Log a practise-ahead preview (`cards.schedule.preview`): no schedule changes."""
        if self.store is not None:
            record_preview(self.store, kind, ref, self.now(), **outcome)

    def record_check(self, report, drill, framework: str, *, started_at: datetime,
                     elapsed_s: float | None, code: str, preview: bool = False):
        """Record a checked attempt through `cards.schedule.training.record_check` (named mistakes send their
        cards back; the drill is spaced; a `preview` changes no schedule). Returns the outcome, or None
        without a usable store."""
        if self.store is None:
            return None

        mistakes = [(d.id, d.card) for d in report.diagnoses]
        return record_check(self.store, drill_id=drill.id, framework=framework, passed=report.passed,
                            mistakes=mistakes, started_at=started_at, finished_at=self.now(),
                            elapsed_s=elapsed_s, target_minutes=drill.target_minutes, code=code,
                            source="app", scheduler=self.scheduler, fuzz=self.fuzz,
                            caught_share=report.tests.caught_share if report.tests is not None else None, preview=preview)

    def close(self) -> None:
        with self.io_lock:
            if self.store is not None:
                self.store.close()
                self.store = None
