"""Mock interview plans: `plan_mock()` draws a session (2-3 coding drills, 6-10 follow-up questions
on the concepts next to them, each with a soft time budget) as a pure function of (seed, minutes,
content), so the same seed replays the same session; `format_plan()` prints one. The constants here
are shared by the session and the scorecard."""
from __future__ import annotations

import random
from dataclasses import asdict, dataclass, replace
from datetime import datetime
from typing import Any, Sequence

from cards.decks.loader import load_decks
from cards.plan.followups import (
    load_followups,
    ranked_followups,
    stated_cards,
    what_if_cards,
)
from drills import load_drills

PAYLOAD_VERSION = 1
MIN_MINUTES, MAX_MINUTES = 15, 180
QUESTION_WEIGHT_S = 150          # a follow-up question's unscaled soft budget (2.5 minutes)
DRILL_SHARE = 0.6                # drills may take at most this share of the clock, when possible
GRADES = {"knew": 1.0, "partly": 0.5, "missed": 0.0}
GRADE_RATING = {"knew": 3, "partly": 2, "missed": 1}  # the card's FSRS rating for a self-grade
ITEM_WEIGHT = {"drill": 3, "question": 1}
CORRECTNESS_SHARE = 0.8           # of an item's points; the rest is for time
WHAT_IF_CHOICES = 3               # a mock's what-if question is drawn among this many nearest
COACHED_SETTING = "mock_coached"  # true: the checker names mistakes during a mock (off: like an interview)


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
        why = (f"2-3 drills and 6-10 questions need at least {MIN_MINUTES} minutes"
               if isinstance(minutes, int) and minutes < MIN_MINUTES else
               f"a mock is one sitting of at most {MAX_MINUTES} minutes; a real coding round is 45-60")
        raise ValueError(f"minutes must be a whole number from {MIN_MINUTES} to {MAX_MINUTES}, "
                         f"got {minutes!r} ({why})")
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


def plan_mock(seed: int, minutes: int = 45, now: datetime | None = None, *,
              drills: Sequence[Any] | None = None, deckset: Any = None,
              framework: str | None = None) -> MockPlan:
    """Compose a mock interview from `seed`: 2-3 coding drills (never all easy), each followed by
    follow-up questions that move on to its neighbouring concepts (`cards.plan.followups`: never a
    card the drill itself states, never one card twice, a new concept each where possible, and at
    least one "what would you change if ..."), 6-10 questions in all, with soft time budgets that add
    up to the overall clock of `minutes`.

    Budgets: each drill weighs its target time, each question `QUESTION_WEIGHT_S`; the weights are
    scaled so the budgets sum to `minutes`. `framework` is used for every drill that supports it
    (else one of the drill's frameworks is drawn). `now` does not change the composition (a plan
    depends only on its seed and content); it is accepted so callers can pass their clock.
    """
    del now
    minutes = _check_minutes(minutes)
    if drills is None:
        drills = load_drills()
    if deckset is None:
        deckset = load_decks()
    # Test-writing drills are practised on their own: a mock's drill items are answers to check.
    drills = sorted((d for d in drills if getattr(d, "kind", "core") != "test"), key=lambda d: d.id)
    rng = random.Random(int(seed))
    n_drills = rng.choice((2, 3)) if minutes >= 30 else 2
    chosen = _pick_drills(rng, drills, n_drills, minutes)

    drill_minutes = sum(d.target_minutes for d in chosen)
    room = max(6, min(10, int((minutes - drill_minutes) * 60 // QUESTION_WEIGHT_S)))
    n_questions = rng.randint(6, room)
    shares = [n_questions // len(chosen) + (1 if i < n_questions % len(chosen) else 0)
              for i in range(len(chosen))]

    data = load_followups()
    # `used`: asked already, or stated by one of this mock's drills (never asked)
    used: set[str] = {c for d in chosen for c in stated_cards(d, deckset, data)}
    # one "what would you change if ..." question from any deck, drawn by the seed among the
    # `WHAT_IF_CHOICES` nearest the drills (so every scenario card gets asked), after the drill it is
    # closest to
    what_if = sorted((wc for wc in what_if_cards(chosen, deckset, data) if wc[1] not in used),
                     key=lambda wc: (wc[0], wc[1]))
    related = [wc for wc in what_if if wc[0] < 0] or what_if
    what_if_id = rng.choice(related[:WHAT_IF_CHOICES])[1] if related else None
    if what_if_id is not None:
        used.add(what_if_id)
        n_questions = max(n_questions - 1, 0)
        shares = [n_questions // len(chosen) + (1 if i < n_questions % len(chosen) else 0)
                  for i in range(len(chosen))]
    ranked_by_drill = [sorted(ranked_followups(d, deckset, data), key=lambda rc: (rc[0], rng.random()))
                       for d in chosen]
    per_drill: list[list[str]] = []
    for ranked, share in zip(ranked_by_drill, shares):
        picks: list[str] = []
        concepts: set[str] = set()
        for _, c in ranked:  # a new concept each question where the ranking allows
            if len(picks) < share and c not in used and not set(deckset.by_id[c].concepts) & concepts:
                picks.append(c)
                concepts |= set(deckset.by_id[c].concepts)
        for _, c in ranked:
            if len(picks) < share and c not in used and c not in picks:
                picks.append(c)
        used.update(picks)
        per_drill.append(picks)
    short = n_questions - sum(len(p) for p in per_drill)
    if short > 0:  # a topic without enough cards: fill from the other drills' follow-ups
        pool = [c for ranked in ranked_by_drill for _, c in ranked if c not in used]
        for i, card_id in enumerate(dict.fromkeys(pool)):
            if i >= short:
                break
            per_drill[-1].append(card_id)
            used.add(card_id)
    if what_if_id is not None:
        card = deckset.by_id[what_if_id]
        near = max(range(len(chosen)), key=lambda i: (len(set(card.concepts) & {
            k for c in chosen[i].cards if c in deckset.by_id for k in deckset.by_id[c].concepts}), -i))
        per_drill[near].append(what_if_id)

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

