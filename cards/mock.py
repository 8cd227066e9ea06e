"""Timed mock interviews: `plan_mock()` / `MockPlan` / `MockItem` (what a session holds, from a
seed), `MockSession` (the timed state machine, persisted step by step), `Scorecard` with
`score_session()`, and the text faces `format_plan()` / `format_scorecard()`.

Why it is built this way:

- A plan is a pure function of (seed, minutes, content): the same seed gives the same session, so
  a candidate can replay a mock or compare two runs of it.
- The session's clock is injected, and time is "active time": wall time since the start minus the
  explicit pauses. Pauses are recorded with their reason and appear on the scorecard; the only
  other gap that is not counted is the time the app was closed after a crash or quit, and that is
  recorded too (reason "closed"), so the scorecard never hides where time went.
- Every step (start, pause, each check run, each self-grade, finish) rewrites the session's row
  in the progress store at once, so a crash loses nothing already answered and `MockSession.load`
  picks up where it stopped.
"""
from __future__ import annotations

import random
from dataclasses import asdict, dataclass, field, replace
from datetime import datetime, timedelta, timezone
from typing import Any, Callable, Iterable, Sequence

from cards.store import ProgressStore, parse_iso, utc_iso

PAYLOAD_VERSION = 1
MIN_MINUTES, MAX_MINUTES = 15, 180
QUESTION_WEIGHT_S = 150          # a follow-up question's unscaled soft budget (2.5 minutes)
DRILL_SHARE = 0.6                # drills may take at most this share of the clock, when possible
GRADES = {"knew": 1.0, "partly": 0.5, "missed": 0.0}
GRADE_RATING = {"knew": 3, "partly": 2, "missed": 1}  # the card's FSRS rating for a self-grade
ITEM_WEIGHT = {"drill": 3, "question": 1}
CORRECTNESS_SHARE = 0.8           # of an item's points; the rest is for time

Clock = Callable[[], datetime]


def _utc_now() -> datetime:
    return datetime.now(timezone.utc)


# -- the plan ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class MockItem:
    """One step of a mock: a coding drill (`ref` is the drill id) or a follow-up question (`ref`
    is the card id, `drill` the drill it follows up). `budget_s` is the soft time budget."""

    index: int
    kind: str
    ref: str
    title: str
    topic: str
    budget_s: int
    framework: str | None = None
    difficulty: str | None = None
    target_minutes: int | None = None
    drill: str | None = None

    def to_json(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class MockPlan:
    """A session's composition: items in order (each drill followed by its questions)."""

    seed: int
    minutes: int
    items: tuple[MockItem, ...]

    @property
    def drills(self) -> list[MockItem]:
        return [i for i in self.items if i.kind == "drill"]

    @property
    def questions(self) -> list[MockItem]:
        return [i for i in self.items if i.kind == "question"]

    @property
    def total_s(self) -> int:
        return self.minutes * 60

    def to_json(self) -> dict:
        return {"seed": self.seed, "minutes": self.minutes, "items": [i.to_json() for i in self.items]}

    @classmethod
    def from_json(cls, data: dict) -> "MockPlan":
        return cls(int(data["seed"]), int(data["minutes"]),
                   tuple(MockItem(**item) for item in data["items"]))


def _check_minutes(minutes: int) -> int:
    if not isinstance(minutes, int) or isinstance(minutes, bool) or not MIN_MINUTES <= minutes <= MAX_MINUTES:
        raise ValueError(f"minutes must be a whole number from {MIN_MINUTES} to {MAX_MINUTES}, "
                         f"got {minutes!r} (2-3 drills and 6-10 questions need at least "
                         f"{MIN_MINUTES} minutes)")
    return minutes


def _pick_drills(rng: random.Random, drills: Sequence[Any], count: int, minutes: int) -> list[Any]:
    """`count` drills, at least one not easy, topics distinct where possible, fitting within
    `DRILL_SHARE` of the clock where possible (the mock still has room for questions)."""
    cap = DRILL_SHARE * minutes
    for _ in range(200):
        not_easy = [d for d in drills if d.difficulty != "easy"]
        first = rng.choice(not_easy)
        chosen = [first]
        rest = [d for d in drills if d is not first]
        while len(chosen) < count and rest:
            topics = {d.topic for d in chosen}
            fresh = [d for d in rest if d.topic not in topics] or rest
            pick = rng.choice(fresh)
            chosen.append(pick)
            rest.remove(pick)
        if sum(d.target_minutes for d in chosen) <= cap:
            return chosen
    # Nothing fits (a very short mock): the shortest mixed set, still not all easy.
    by_time = sorted(drills, key=lambda d: (d.target_minutes, d.id))
    first = next(d for d in by_time if d.difficulty != "easy")
    return [first] + [d for d in by_time if d is not first][: count - 1]


def _related_cards(drill: Any, deckset: Any) -> list[tuple[int, str]]:
    """Cards on the drill's topic, ranked: the drill's own cards (0), cards sharing one of their
    concepts (1), cards sharing a specific tag (2). Returned as (rank, card id) in deck order."""
    own = [c for c in drill.cards if c in deckset.by_id]
    concepts = {k for c in own for k in deckset.by_id[c].concepts}
    generic = {"pitfall", "numbers", "bug", "derivation", "exercise", "worked-example", "design",
               "implementations", "implementation", "dashboard", "measurement", "ppo", "rlhf", "llm"}
    tags = {t for c in own for t in deckset.by_id[c].tags} - generic
    ranked = [(0, c) for c in own]
    for card in deckset.cards:
        if card.id in own:
            continue
        if concepts & set(card.concepts):
            ranked.append((1, card.id))
        elif tags & set(card.tags):
            ranked.append((2, card.id))
    return ranked


def plan_mock(seed: int, minutes: int = 45, now: datetime | None = None, *,
              drills: Sequence[Any] | None = None, deckset: Any = None,
              framework: str | None = None) -> MockPlan:
    """Compose a mock interview from `seed`: 2-3 coding drills (never all easy), each followed by
    follow-up questions drawn from the cards on its topic, 6-10 questions in all, with soft time
    budgets that add up to the overall clock of `minutes`.

    Budgets: each drill weighs its target time, each question `QUESTION_WEIGHT_S`; the weights are
    scaled so the budgets sum to `minutes`. `framework` is used for every drill that supports it
    (else one of the drill's frameworks is drawn). `now` does not change the composition (a plan
    depends only on its seed and content); it is accepted so callers can pass their clock.
    """
    del now
    minutes = _check_minutes(minutes)
    if drills is None:
        from drills import load_drills

        drills = load_drills()
    if deckset is None:
        from cards.deck import load_decks

        deckset = load_decks()
    drills = sorted(drills, key=lambda d: d.id)
    rng = random.Random(int(seed))
    n_drills = rng.choice((2, 3)) if minutes >= 30 else 2
    chosen = _pick_drills(rng, drills, n_drills, minutes)

    drill_minutes = sum(d.target_minutes for d in chosen)
    room = max(6, min(10, int((minutes - drill_minutes) * 60 // QUESTION_WEIGHT_S)))
    n_questions = rng.randint(6, room)
    shares = [n_questions // len(chosen) + (1 if i < n_questions % len(chosen) else 0)
              for i in range(len(chosen))]

    used: set[str] = set()
    per_drill: list[list[str]] = []
    for drill, share in zip(chosen, shares):
        ranked = sorted(_related_cards(drill, deckset), key=lambda rc: (rc[0], rng.random()))
        picks = [c for _, c in ranked if c not in used][:share]
        used.update(picks)
        per_drill.append(picks)
    short = n_questions - sum(len(p) for p in per_drill)
    if short > 0:  # a topic without enough cards: fill from the other drills' related cards
        pool = [c for d in chosen for _, c in sorted(_related_cards(d, deckset)) if c not in used]
        for i, card_id in enumerate(dict.fromkeys(pool)):
            if i >= short:
                break
            per_drill[-1].append(card_id)
            used.add(card_id)

    weights = [d.target_minutes * 60 for d in chosen] + [QUESTION_WEIGHT_S] * sum(map(len, per_drill))
    scale = minutes * 60 / sum(weights)
    items: list[MockItem] = []
    for drill, picks in zip(chosen, per_drill):
        fw = framework if framework in drill.frameworks else rng.choice(sorted(drill.frameworks))
        items.append(MockItem(len(items), "drill", drill.id, drill.title, drill.topic,
                              round(drill.target_minutes * 60 * scale), fw, drill.difficulty,
                              drill.target_minutes))
        for card_id in picks:
            card = deckset.by_id[card_id]
            items.append(MockItem(len(items), "question", card_id, card.front.strip().splitlines()[0],
                                  drill.topic, round(QUESTION_WEIGHT_S * scale), drill=drill.id))
    residual = minutes * 60 - sum(i.budget_s for i in items)  # rounding: budgets sum to the clock
    items[0] = replace(items[0], budget_s=items[0].budget_s + residual)
    return MockPlan(int(seed), minutes, tuple(items))


def _mmss(seconds: float) -> str:
    seconds = max(0, int(round(seconds)))
    return f"{seconds // 60}:{seconds % 60:02d}"


def format_plan(plan: MockPlan) -> str:
    """The session's composition as text (`ppo-drill mock --plan`)."""
    lines = [f"Mock interview: seed {plan.seed}, {plan.minutes} minutes, "
             f"{len(plan.drills)} coding drills, {len(plan.questions)} follow-up questions", ""]
    for item in plan.items:
        if item.kind == "drill":
            lines.append(f"{item.index + 1:>2}. drill    {item.ref} [{item.framework}, {item.difficulty}, "
                         f"target {item.target_minutes} min]  budget {_mmss(item.budget_s)}")
            lines.append(f"               {item.title}")
        else:
            lines.append(f"{item.index + 1:>2}. question {item.ref}  budget {_mmss(item.budget_s)}")
            lines.append(f"               {item.title}")
    lines += ["", f"Replay this session with: ppo-drill mock --seed {plan.seed} --minutes {plan.minutes}"]
    return "\n".join(lines)


# -- the session ------------------------------------------------------------------------------


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

    @property
    def time_s(self) -> float | None:
        return None if self.ended_s is None else self.ended_s - self.started_s


@dataclass
class Pause:
    """A stretch of wall time not counted: `reason` "key" (the candidate pressed pause) or
    "closed" (the app was not running: a quit or a crash, found when the session is reopened)."""

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
                from drills import all_mistakes

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
    also a recorded drill attempt (`cards.training.record_check`: named mistakes send their cards
    back, the drill is spaced) and each self-grade is a review of the question's card (knew =
    Good, partly = Hard, missed = Again), unless `record_training=False`.
    """

    def __init__(self, plan: MockPlan, *, store: ProgressStore | None = None, clock: Clock = _utc_now,
                 started_at: datetime | None = None, mock_id: str | None = None,
                 record_training: bool = True, fuzz: bool = True, scheduler: Any = None) -> None:
        self.plan = plan
        self.store = store
        self.clock = clock
        self.record_training = record_training
        self.fuzz = fuzz
        self.started_at = started_at or self.now()
        self.last_seen = self.started_at
        self.mock_id = mock_id
        self.pauses: list[Pause] = []
        self.results: list[ItemResult] = [ItemResult(0, 0.0)] if plan.items else []
        self.finished_at: datetime | None = None
        self.finish_reason: str | None = None
        self._scheduler = scheduler  # a cards.scheduler.Scheduler over this store (made when needed)

    # -- construction ----------------------------------------------------------------------

    @classmethod
    def start(cls, plan: MockPlan, store: ProgressStore | None = None, *, clock: Clock = _utc_now,
              **kwargs: Any) -> "MockSession":
        """Begin a session now; the overall clock starts running at once."""
        session = cls(plan, store=store, clock=clock, **kwargs)
        session._save()
        return session

    @classmethod
    def load(cls, store: ProgressStore, mock_id: str, *, clock: Clock = _utc_now,
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

    def submit_drill(self, passed: bool, mistakes: Iterable[Any] = (), code: str = "") -> ItemResult:
        """Record one run of the checks on the current drill: passed completes the item, a fail
        keeps it open (fix and run again, or `give_up()`). Named mistakes are (id, card) pairs,
        ids or dicts; with a store the run is a recorded attempt (see the class docstring)."""
        item = self._require_item("drill")
        result = self.results[-1]
        now = self.now()
        entries = _mistake_entries(mistakes)
        result.runs += 1
        for entry in entries:
            if entry["id"] not in {m["id"] for m in result.mistakes}:
                result.mistakes.append(entry)
        if self.store is not None and self.record_training:
            from cards.training import record_check

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

    def give_up(self) -> ItemResult:
        """Leave the current drill unsolved and move on (failed, or unanswered if never run)."""
        self._require_item("drill")
        result = self.results[-1]
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

    def finish(self, reason: str = "done") -> "Scorecard":
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
        return score_session(self)

    def scorecard(self) -> "Scorecard":
        """The scorecard so far (final once finished)."""
        return score_session(self)

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
            from cards.deck import load_decks
            from cards.scheduler import Scheduler

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
        if self.finished:
            data["scorecard"] = score_session(self).to_json()
        return data

    def _save(self) -> None:
        self.last_seen = self.finished_at or self.now()
        if self.store is not None:
            self.mock_id = self.store.record_mock(seed=self.plan.seed, started_at=self.started_at,
                                                  payload=self.payload(), finished_at=self.finished_at,
                                                  mock_id=self.mock_id)


def answer_root(mock_id: str | None, data_dir: Any = None) -> Any:
    """The folder for a session's typed answers (`cards.drafts` files under it): mock answers
    start from the starter and never overwrite the drill workspace's saved answer."""
    from pathlib import Path

    if data_dir is None:
        from cards.paths import data_dir as default_dir

        data_dir = default_dir()
    return Path(data_dir) / "mock" / (mock_id or "unsaved")


def unfinished_mocks(store: ProgressStore) -> list[str]:
    """Ids of saved sessions that were never finished (newest last), for "resume mock"."""
    return [m.id for m in store.mocks() if m.finished_at is None
            and isinstance(m.payload, dict) and m.payload.get("version") == PAYLOAD_VERSION]


# -- the scorecard ----------------------------------------------------------------------------

RUBRIC = (
    "score = 100 x sum(w * c * (0.8 + 0.2 * t)) / sum(w), over every item of the plan. "
    "w: 3 for a coding drill, 1 for a question. "
    "c (correctness): 1 drill passed or question known, 0.5 question partly known, "
    "0 failed, missed or unanswered. "
    "t (time): 1 within the item's soft budget, falling linearly to 0 at twice the budget. "
    "Correctness comes first: a wrong answer earns nothing however fast, and time can cost at "
    "most a fifth of an item's points. Pauses are not counted as time; they are listed."
)


@dataclass(frozen=True)
class ItemScore:
    """One item on the scorecard."""

    index: int
    kind: str
    ref: str
    title: str
    topic: str
    outcome: str
    correct: float
    time_s: float | None
    budget_s: int
    time_factor: float
    points: float
    max_points: float
    runs: int = 0
    mistakes: tuple[dict, ...] = ()
    framework: str | None = None

    @property
    def on_time(self) -> bool:
        return self.time_s is not None and self.time_s <= self.budget_s


@dataclass(frozen=True)
class Scorecard:
    """A session's result: items, overall score with its rubric, pauses, topics to study next."""

    mock_id: str | None
    seed: int
    minutes: int
    status: str
    finish_reason: str | None
    score: float
    correctness: float
    elapsed_s: float
    paused_s: float
    pauses: tuple[dict, ...]
    items: tuple[ItemScore, ...]
    study_next: tuple[dict, ...]
    rubric: str = RUBRIC

    def to_json(self) -> dict:
        data = asdict(self)
        data["items"] = [{**asdict(i), "on_time": i.on_time} for i in self.items]
        return data


def time_factor(time_s: float | None, budget_s: float) -> float:
    """1 within the budget, linearly down to 0 at twice the budget (see `RUBRIC`)."""
    if time_s is None or budget_s <= 0:
        return 0.0
    if time_s <= budget_s:
        return 1.0
    return max(0.0, 1.0 - (time_s - budget_s) / budget_s)


def _correctness(outcome: str | None) -> float:
    if outcome == "passed":
        return 1.0
    return GRADES.get(outcome or "", 0.0)


def _drill_cards(drill_id: str) -> tuple[str, ...]:
    try:
        from drills import get_drill

        return tuple(get_drill(drill_id).cards)
    except Exception:  # a drill removed from the content since the session: no cards to suggest
        return ()


def score_session(session: MockSession) -> Scorecard:
    """Score a session by `RUBRIC` (items not reached count as unanswered)."""
    plan = session.plan
    by_index = {r.index: r for r in session.results}
    items: list[ItemScore] = []
    total_w = earned = correct_w = 0.0
    for item in plan.items:
        result = by_index.get(item.index)
        outcome = result.outcome if result and (result.ended_s is not None or session.finished) else None
        outcome = outcome or ("in progress" if result and not session.finished else "unanswered")
        c = _correctness(outcome)
        t = result.time_s if result else None
        tf = time_factor(t, item.budget_s)
        w = ITEM_WEIGHT[item.kind]
        points = w * c * (CORRECTNESS_SHARE + (1 - CORRECTNESS_SHARE) * tf)
        total_w += w
        earned += points
        correct_w += w * c
        items.append(ItemScore(item.index, item.kind, item.ref, item.title, item.topic, outcome, c, t,
                               item.budget_s, tf, round(points, 3), float(w),
                               result.runs if result else 0,
                               tuple(result.mistakes) if result else (), item.framework))
    end = session.finished_at or session.now()
    pauses = tuple({"start": utc_iso(p.start), "end": utc_iso(p.end) if p.end else None,
                    "seconds": round(p.seconds(end), 1), "reason": p.reason} for p in session.pauses)
    return Scorecard(session.mock_id, plan.seed, plan.minutes, session.status, session.finish_reason,
                     round(100 * earned / total_w, 1) if total_w else 0.0,
                     round(100 * correct_w / total_w, 1) if total_w else 0.0,
                     round(session.elapsed_s(), 1), round(session.paused_s(), 1), pauses,
                     tuple(items), tuple(study_next(items)))


def study_next(items: Sequence[ItemScore]) -> list[dict]:
    """Topics to study next, weakest first: each topic's lost correctness (weighted as in the
    rubric) over the items reached, with the cards to review (named mistakes' cards, missed
    questions' cards, a failed drill's own cards) and the mistakes named."""
    topics: dict[str, dict] = {}
    for it in items:
        if it.time_s is None:  # never reached: no evidence either way
            continue
        lost = ITEM_WEIGHT[it.kind] * (1 - it.correct)
        if lost <= 0 and not it.mistakes:
            continue
        entry = topics.setdefault(it.topic, {"topic": it.topic, "lost": 0.0, "cards": [], "mistakes": []})
        entry["lost"] += lost
        cards: list[str] = [m["card"] for m in it.mistakes if m.get("card")]
        if it.kind == "question" and it.correct < 1:
            cards.append(it.ref)
        if it.kind == "drill" and it.correct < 1 and not cards:
            cards.extend(_drill_cards(it.ref)[:2])
        entry["cards"] = list(dict.fromkeys(entry["cards"] + cards))
        entry["mistakes"] = list(dict.fromkeys(entry["mistakes"] + [m["id"] for m in it.mistakes]))
    ranked = sorted(topics.values(), key=lambda e: (-e["lost"], e["topic"]))
    for e in ranked:
        e["lost"] = round(e["lost"], 2)
    return ranked


_OUTCOME_LABEL = {"passed": "PASS", "failed": "FAIL", "knew": "knew", "partly": "partly",
                  "missed": "missed", "unanswered": "-", "in progress": "..."}


def format_scorecard(card: Scorecard) -> str:
    """The scorecard as text (shown by the mock screen and printable)."""
    lines = [f"Mock interview scorecard (seed {card.seed}, {card.minutes} min, "
             f"{card.finish_reason or card.status})",
             f"Score {card.score:.1f} / 100   correctness {card.correctness:.1f}%   "
             f"time used {_mmss(card.elapsed_s)} of {card.minutes}:00", ""]
    for it in card.items:
        time = "not reached" if it.time_s is None else f"{_mmss(it.time_s)} / {_mmss(it.budget_s)}"
        flag = "" if it.time_s is None or not it.correct else (" on time" if it.on_time else " over")
        runs = f", {it.runs} run{'s' if it.runs != 1 else ''}" if it.kind == "drill" else ""
        lines.append(f"{it.index + 1:>2}. {_OUTCOME_LABEL.get(it.outcome, it.outcome):<7} "
                     f"{it.kind:<8} {it.ref}  {time}{flag}{runs}  {it.points:.2f}/{it.max_points:.0f}")
        for m in it.mistakes:
            lines.append(f"      mistake: {m['title']} ({m['id']}; card {m.get('card') or '-'})")
    lines.append("")
    if card.pauses:
        lines.append(f"Paused {len(card.pauses)} time(s), {_mmss(card.paused_s)} in all (not counted):")
        for p in card.pauses:
            why = "pause key" if p["reason"] == "key" else "app closed"
            lines.append(f"  {p['start'][11:19]} UTC  {_mmss(p['seconds'])}  ({why})")
    else:
        lines.append("No pauses: the clock ran for the whole session.")
    if card.study_next:
        lines += ["", "Study next:"]
        for e in card.study_next:
            lines.append(f"  {e['topic']}: cards {', '.join(e['cards']) or '-'}"
                         + (f"; mistakes {', '.join(e['mistakes'])}" if e["mistakes"] else ""))
    lines += ["", "Rubric: " + card.rubric]
    return "\n".join(lines)
