"""The timed mock session (`MockSession`): an injected clock, "active time" = wall time minus the
recorded pauses, and every step persisted to the progress store at once so a crash loses nothing
already answered.

The session records facts (the plan, pauses, each item's outcome and time) and knows nothing of
scoring: `cards.plan.mock_score` reads a session and scores it. What a finished record keeps besides
the facts (the scorecard, which mock history reads) is handed in as `summarise`; `cards.plan.mock`
wires the two together."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any, Callable, Iterable

from cards.decks.loader import load_decks
from cards.plan.mock_plan import (
    GRADE_RATING,
    GRADES,
    PAYLOAD_VERSION,
    MockItem,
    MockPlan,
)
from cards.progress.paths import data_dir as default_dir
from cards.progress.schema import Clock, utc_now
from cards.progress.store import ProgressStore, parse_iso, utc_iso
from cards.schedule.scheduler import Scheduler
from cards.schedule.training import record_check
from drills import all_mistakes

Summary = Callable[["MockSession"], dict]
class MockStateError(RuntimeError):
    """An action that the session's state does not allow (e.g. grading while paused)."""


@dataclass
class ItemResult:
    """What happened on one item. `outcome`: passed / failed (drills), knew / partly / missed
    (questions), or unanswered. Times are active seconds since the session started."""

    index: int
    started_s: float
    ended_s: float | None = None
    outcome: str | None = None
    runs: int = 0
    mistakes: list[dict] = field(default_factory=list)
    attempt_ids: list[int] = field(default_factory=list)
    answer: str = ""
    code: str = ""  # a drill's last code run through the checks (or left when giving up)
    last_report: dict | None = None  # the checker's report on that run, as JSON, shown again on return

    @property
    def time_s(self) -> float | None:
        return None if self.ended_s is None else self.ended_s - self.started_s


@dataclass
class Pause:
    """A stretch of wall time not counted: `reason` "key" (the candidate pressed pause) or
    "closed" (the mock was not on screen: left for another screen, or the app quit or crashed; found
    when the session is reopened)."""

    start: datetime
    end: datetime | None
    reason: str

    def seconds(self, now: datetime) -> float:
        return ((self.end or now) - self.start).total_seconds()


def _mistake_entries(mistakes: Iterable[Any]) -> list[dict]:
    """Normalise named mistakes (ids, (id, card) pairs or dicts) to {id, title, card}."""
    catalogue = None
    entries = []
    for m in mistakes:
        if isinstance(m, dict):
            mid, card, title = m["id"], m.get("card"), m.get("title")
        elif isinstance(m, (tuple, list)):
            mid, card, title = m[0], m[1] if len(m) > 1 else None, None
        else:
            mid, card, title = str(m), None, None
        if title is None or card is None:
            if catalogue is None:
                catalogue = all_mistakes()
            known = catalogue.get(mid)
            title = title or (known.title if known else mid)
            card = card or (known.card if known else None)
        entries.append({"id": mid, "title": title, "card": card})
    return entries


class MockSession:
    """A running mock interview: the current item, the clock, the answers; persisted each step.

    Create with `MockSession.start(plan, store, clock=...)`, reopen with `MockSession.load(...)`.
    `store=None` keeps everything in memory (nothing recorded). With a store, each check run is
    also a recorded drill attempt (`cards.schedule.training.record_check`: named mistakes send their cards
    back, the drill is spaced) and each self-grade is a review of the question's card (knew =
    Good, partly = Hard, missed = Again), unless `record_training=False`. `summarise`, when given,
    turns the finished session into the JSON kept under the record's "scorecard" key.
    """

    def __init__(self, plan: MockPlan, *, store: ProgressStore | None = None, clock: Clock = utc_now,
                 started_at: datetime | None = None, mock_id: str | None = None,
                 record_training: bool = True, fuzz: bool = True, scheduler: Any = None,
                 summarise: Summary | None = None) -> None:
        self.plan = plan
        self.store = store
        self.clock = clock
        self.record_training = record_training
        self.fuzz = fuzz
        self.summarise = summarise
        self.started_at = started_at or self.now()
        self.last_seen = self.started_at
        self.mock_id = mock_id
        self.pauses: list[Pause] = []
        self.results: list[ItemResult] = [ItemResult(0, 0.0)] if plan.items else []
        self.finished_at: datetime | None = None
        self.finish_reason: str | None = None
        self._scheduler = scheduler  # a cards.schedule.scheduler.Scheduler over this store (made when needed)

    # -- construction ----------------------------------------------------------------------

    @classmethod
    def start(cls, plan: MockPlan, store: ProgressStore | None = None, *, clock: Clock = utc_now,
              **kwargs: Any) -> "MockSession":
        """Begin a session now; the overall clock starts running at once."""
        session = cls(plan, store=store, clock=clock, **kwargs)
        session._save()
        return session

    @classmethod
    def load(cls, store: ProgressStore, mock_id: str, *, clock: Clock = utc_now,
             **kwargs: Any) -> "MockSession":
        """Reopen a saved session. If it was left running, the time since it was last seen is
        recorded as a "closed" pause (the app was not open, so the clock did not run)."""
        row = next((m for m in store.mocks() if m.id == mock_id), None)
        if row is None:
            raise KeyError(f"no mock session {mock_id!r} in {store.path}")
        data = row.payload
        if not isinstance(data, dict) or data.get("version") != PAYLOAD_VERSION or "plan" not in data:
            raise ValueError(f"mock session {mock_id!r} in {store.path}: field 'payload' is not a "
                             f"version-{PAYLOAD_VERSION} mock record")
        try:
            session = cls(MockPlan.from_json(data["plan"]), store=store, clock=clock,
                          started_at=row.started_at, mock_id=row.id, **kwargs)
            session.last_seen = parse_iso(data["last_seen"])
            session.pauses = [Pause(parse_iso(p["start"]), parse_iso(p["end"]) if p["end"] else None,
                                    p["reason"]) for p in data["pauses"]]
            session.results = [ItemResult(**r) for r in data["results"]]
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"mock session {mock_id!r} in {store.path}: field 'payload' is damaged "
                             f"({type(exc).__name__}: {exc}); the record was left as it is") from exc
        session.finished_at = row.finished_at
        session.finish_reason = data.get("finish_reason")
        if session.finished_at is None:
            now = session.now()
            if not session.paused and now > session.last_seen:
                session.pauses.append(Pause(session.last_seen, now, "closed"))
            session._save()
        return session

    # -- time ------------------------------------------------------------------------------

    def now(self) -> datetime:
        when = self.clock()
        if when.tzinfo is None:
            raise ValueError(f"the clock must give timezone-aware datetimes, got {when!r}")
        return when.astimezone(timezone.utc)

    def _active_at(self, when: datetime) -> float:
        paused = sum(max(0.0, (min(p.end or when, when) - max(p.start, self.started_at)).total_seconds())
                     for p in self.pauses if p.start < when)
        return (when - self.started_at).total_seconds() - paused

    def elapsed_s(self) -> float:
        """Active seconds so far: wall time since the start minus pauses (frozen once finished)."""
        if self.finished_at is not None:
            return min(self._active_at(self.finished_at), float(self.plan.total_s))
        return self._active_at(self.now())

    def remaining_s(self) -> float:
        return max(0.0, self.plan.total_s - self.elapsed_s())

    def paused_s(self) -> float:
        end = self.finished_at or self.now()
        return sum(p.seconds(end) for p in self.pauses)

    @property
    def paused(self) -> bool:
        return bool(self.pauses) and self.pauses[-1].end is None

    @property
    def finished(self) -> bool:
        return self.finished_at is not None

    @property
    def status(self) -> str:
        return "finished" if self.finished else "paused" if self.paused else "running"

    @property
    def current(self) -> MockItem | None:
        """The item being answered, or None once finished or when every item is answered."""
        if self.finished or not self.results or self.results[-1].ended_s is not None:
            return None
        return self.plan.items[self.results[-1].index]

    def item_elapsed_s(self) -> float:
        """Active seconds spent on the current item (0 when there is none)."""
        if self.current is None:
            return 0.0
        return self.elapsed_s() - self.results[-1].started_s

    # -- actions ---------------------------------------------------------------------------

    def tick(self) -> bool:
        """Finish the session if the overall clock has run out; True if it is (now) finished."""
        if not self.finished and not self.paused and self.elapsed_s() >= self.plan.total_s:
            self.finish("time-up")
        return self.finished

    def touch(self) -> None:
        """Persist "still open at this time" (the app calls it now and then), so a crash costs
        at most the time since the last touch being counted as closed."""
        if not self.finished:
            self._save()

    def pause(self) -> None:
        """Stop the clock (recorded; shown on the scorecard)."""
        self._require_open()
        self.pauses.append(Pause(self.now(), None, "key"))
        self._save()

    def resume(self) -> None:
        """Restart the clock after `pause()`."""
        if not self.paused or self.finished:
            raise MockStateError("the session is not paused")
        self.pauses[-1].end = self.now()
        self._save()
        self.tick()

    def submit_drill(self, passed: bool, mistakes: Iterable[Any] = (), code: str = "",
                     report: dict | None = None) -> ItemResult:
        """Record one run of the checks on the current drill: passed completes the item, a fail
        keeps it open (fix and run again, or `give_up()`). Named mistakes are (id, card) pairs,
        ids or dicts; with a store the run is a recorded attempt (see the class docstring).
        `report`: the checker's report as JSON, kept so a mock continued later shows it again."""
        item = self._require_item("drill")
        result = self.results[-1]
        now = self.now()
        entries = _mistake_entries(mistakes)
        result.runs += 1
        result.code = code
        result.last_report = report
        for entry in entries:
            if entry["id"] not in {m["id"] for m in result.mistakes}:
                result.mistakes.append(entry)
        if self.store is not None and self.record_training:
            outcome = record_check(
                self.store, drill_id=item.ref, framework=item.framework or "numpy", passed=passed,
                mistakes=[(e["id"], e["card"]) for e in entries],
                started_at=self._wall_at(result.started_s), finished_at=now,
                elapsed_s=self.elapsed_s() - result.started_s, target_minutes=item.target_minutes,
                code=code, source="app", scheduler=self._cards_scheduler(), fuzz=self.fuzz)
            result.attempt_ids.append(outcome.attempt_id)
        if passed:
            self._complete("passed")
        else:
            result.outcome = "failed"
            self._save()
        return result

    def give_up(self, code: str | None = None) -> ItemResult:
        """Leave the current drill unsolved and move on (failed, or unanswered if never run); `code`
        is what was in the editor, kept for the scorecard."""
        self._require_item("drill")
        result = self.results[-1]
        if code is not None and code.strip():
            result.code = code
        return self._complete("failed" if result.runs else "unanswered")

    def grade_question(self, grade: str, answer: str = "") -> ItemResult:
        """Self-grade the current question against the card's answer: knew / partly / missed.
        `answer` is what the candidate typed, if anything (kept with the session)."""
        if grade not in GRADES:
            raise ValueError(f"grade must be one of {', '.join(GRADES)}, got {grade!r}")
        item = self._require_item("question")
        self.results[-1].answer = answer
        if self.store is not None and self.record_training:
            scheduler = self._cards_scheduler()
            if scheduler is not None and item.ref in scheduler.deckset.by_id:
                scheduler.review(item.ref, GRADE_RATING[grade], now=self.now(), source="user")
        return self._complete(grade)

    def skip(self) -> ItemResult:
        """Move on without answering (scored as unanswered)."""
        self._require_open()
        if self.current is None:
            raise MockStateError("there is no current item")
        return self._complete("unanswered")

    def finish(self, reason: str = "done") -> None:
        """End the session ("done", "time-up" or "quit"); unanswered items stay unanswered."""
        if not self.finished:
            if self.paused:
                self.pauses[-1].end = self.now()
            now = self.now()
            active = self._active_at(now)
            if active > self.plan.total_s:  # the clock ran out before anyone noticed
                now = self._wall_at(float(self.plan.total_s))
                active = float(self.plan.total_s)
            self.pauses = [p for p in self.pauses if p.start < now]
            for p in self.pauses:
                if p.end is not None and p.end > now:
                    p.end = now
            if self.results and self.results[-1].ended_s is None:
                last = self.results[-1]
                last.ended_s = active
                last.outcome = "failed" if last.outcome == "failed" else "unanswered"
            self.finished_at = now
            self.finish_reason = reason
            self._save()

    # -- internals -------------------------------------------------------------------------

    def _require_open(self) -> None:
        self.tick()
        if self.finished:
            raise MockStateError("the session is finished")
        if self.paused:
            raise MockStateError("the session is paused: resume it first")

    def _require_item(self, kind: str) -> MockItem:
        self._require_open()
        item = self.current
        if item is None or item.kind != kind:
            raise MockStateError(f"the current item is not a {kind}")
        return item

    def _complete(self, outcome: str) -> ItemResult:
        result = self.results[-1]
        result.ended_s = self.elapsed_s()
        result.outcome = outcome
        if result.index + 1 < len(self.plan.items):
            self.results.append(ItemResult(result.index + 1, result.ended_s))
            self._save()
        else:
            self.finish("done")
        return result

    def _wall_at(self, active_s: float) -> datetime:
        """The wall time at which the active clock read `active_s` (pauses skipped)."""
        wall = self.started_at + timedelta(seconds=active_s)
        for p in sorted(self.pauses, key=lambda p: p.start):
            if p.start <= wall:
                wall += (p.end or self.now()) - p.start
        return wall

    def _cards_scheduler(self) -> Any:
        if self._scheduler is None:
            self._scheduler = Scheduler(self.store, load_decks(), clock=self.now, fuzz=self.fuzz)
        return self._scheduler

    def payload(self) -> dict:
        """The session as JSON data (the `mock_session.payload` column)."""
        data = {
            "version": PAYLOAD_VERSION,
            "plan": self.plan.to_json(),
            "last_seen": utc_iso(self.last_seen),
            "pauses": [{"start": utc_iso(p.start), "end": utc_iso(p.end) if p.end else None,
                        "reason": p.reason} for p in self.pauses],
            "results": [asdict(r) for r in self.results],
            "finish_reason": self.finish_reason,
        }
        if self.finished and self.summarise is not None:
            data["scorecard"] = self.summarise(self)
        return data

    def _save(self) -> None:
        self.last_seen = self.finished_at or self.now()
        if self.store is not None:
            self.mock_id = self.store.record_mock(seed=self.plan.seed, started_at=self.started_at,
                                                  payload=self.payload(), finished_at=self.finished_at,
                                                  mock_id=self.mock_id)


def answer_root(mock_id: str | None, data_dir: Any = None) -> Any:
    """The folder for a session's typed answers (`cards.progress.drafts` files under it): mock answers
    start from the starter and never overwrite the drill workspace's saved answer."""
    if data_dir is None:
        data_dir = default_dir()
    return Path(data_dir) / "mock" / (mock_id or "unsaved")


def unfinished_mocks(store: ProgressStore) -> list[str]:
    """Ids of saved sessions that were never finished (newest last), for "resume mock"."""
    return [m.id for m in store.mocks() if m.finished_at is None
            and isinstance(m.payload, dict) and m.payload.get("version") == PAYLOAD_VERSION]

