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
from functools import lru_cache
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable

from cards.decks.loader import DeckSet, load_decks
from cards.progress.store import ProgressStore, StoreError, open_store

Clock = Callable[[], datetime]
LANGUAGES = ("en", "zh")


def utc_now() -> datetime:
    return datetime.now(timezone.utc)


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
            from drills import DrillContentError, load_drills

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
            from cards.schedule.scheduler import Scheduler

            session.scheduler = Scheduler(session.store, session.deckset, clock=clock, fuzz=fuzz)
        return session

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

    def record_check(self, report, drill, framework: str, *, started_at: datetime,
                     elapsed_s: float | None, code: str):
        """Record a checked attempt through `cards.schedule.training.record_check` (named mistakes send their
        cards back; the drill is spaced). Returns the outcome, or None without a usable store."""
        if self.store is None:
            return None
        from cards.schedule.training import record_check

        mistakes = [(d.id, d.card) for d in report.diagnoses]
        return record_check(self.store, drill_id=drill.id, framework=framework, passed=report.passed,
                            mistakes=mistakes, started_at=started_at, finished_at=self.now(),
                            elapsed_s=elapsed_s, target_minutes=drill.target_minutes, code=code,
                            source="app", scheduler=self.scheduler, fuzz=self.fuzz)

    def close(self) -> None:
        with self.io_lock:
            if self.store is not None:
                self.store.close()
                self.store = None
