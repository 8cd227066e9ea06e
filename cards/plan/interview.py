"""A study plan that counts down to the interview date: `study_plan()` builds a `StudyPlan` (days left,
today's targets and progress, a day-by-day forecast, per-topic readiness, what it cannot promise and
what to cut); `interview_date()` / `set_interview_date()` keep the date in the store's settings;
`practise_ahead()` lists what to preview when nothing is due; `queue_study_next()` adds a mock's
"study next" to today's plan; `format_study_plan()` prints it (`ppo-drill plan`).

How the plan is made:

- The study days are today up to the day before the interview. New cards are spread evenly over all
  but the last `FINAL_DAYS` of them (so every card gets at least one spaced review before the day),
  never-tried drills likewise; due reviews and due drills come on the day they fall due, as FSRS says.
- The forecast simulates the rest of the plan on unfuzzed FSRS (every review rated Good): the number
  of reviews each day, and on the last study day a top-up of every card and drill whose predicted
  recall on the interview day would be below `TARGET_RECALL`. So if the plan is followed, every card
  and drill has been seen and is predicted to be recalled on the day.
- Where the days are too few (more than `MAX_NEW_PER_DAY` new cards or `MAX_DRILLS_PER_DAY` new drills
  a day), the plan says so and names what to cut: the decks and drills last in the study order.
- A mock interview is planned on each of the last `MOCK_DAYS` study days.
- Each day, and today's plan, carries a time estimate (`estimate_minutes`: `REVIEW_SECONDS` a review,
  `NEW_CARD_SECONDS` a new card, a drill's target minutes, `MOCK_MINUTES` a mock); days planned over
  `HEAVY_MINUTES` are named among what the plan cannot promise.
- A drill on today's plan is done when it passed today (a failed try is shown as tried, not ticked).
- Readiness is the mean predicted recall on the interview day (FSRS retrievability at noon UTC of
  that day, `cards.schedule.recall`) of a topic's cards and drills; never studied counts 0. A drill
  belongs to the deck most of its cards are in. Beside it, how many of the topic's drills are mastered
  (`cards.schedule.mastery`: passed, then passed again on a later day in another form); a drill passed
  once is planned again, on a later day, in another form.
- On the interview day nothing new is planned; after it the plan turns back into plain spaced review
  (the scheduler's own new-card allowance, drills when due) and readiness reads recall now.

Pure functions of the store, the content and an injected `now`; days are UTC days as in the scheduler.
"""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import asdict, dataclass
from datetime import date, datetime, time, timedelta, timezone
from typing import Any, Sequence

import fsrs

from cards.progress.store import ProgressStore, utc_iso
from cards.schedule.mastery import MASTERED, PASSED, mastery, other_forms
from cards.schedule.preview import preview_counts
from cards.schedule.recall import DESIRED_RETENTION, recall_at
from cards.schedule.scheduler import (
    DEFAULT_NEW_PER_DAY,
    LEARNING_STATES,
    NEW_PER_DAY_SETTING,
    REVIEW_STATES,
    Scheduler,
)

INTERVIEW_SETTING = "interview_date"
EXTRA_SETTING = "plan_extra"          # {"day": ISO day, "at": ISO time, "cards": [...], "drills": [...]}
TARGET_RECALL = DESIRED_RETENTION      # "predicted to be recalled": FSRS's own threshold
FINAL_DAYS = 2                         # last study days without new cards
MOCK_DAYS = 2                          # a mock on each of the last study days
MAX_NEW_PER_DAY = 40                   # more new cards a day than this is not a plan a person keeps
MAX_DRILLS_PER_DAY = 4                 # new drills a day (each is 5-15 minutes of coding)
HEAVY_REVIEWS = 200                    # a forecast day with more reviews than this is flagged
HORIZON_DAYS = 400                     # the forecast stops here (a date further away is plain review)
# What a day of the plan costs, roughly (the plan's time estimates): a review is reading a front, recalling,
# revealing and rating; a new card is its first sight plus its same-day learning steps; a drill its target
# time; a mock its default length.
REVIEW_SECONDS = 20
NEW_CARD_SECONDS = 60
MOCK_MINUTES = 45
HEAVY_MINUTES = 180                    # a day planned longer than this is flagged
INTERVIEW_HOUR = 12                    # readiness is read at noon UTC of the interview day


# -- the date --------------------------------------------------------------------------------------

def parse_day(text: str) -> date:
    """A YYYY-MM-DD date, or ValueError saying what was expected."""
    try:
        return date.fromisoformat(text.strip())
    except (AttributeError, ValueError):
        raise ValueError(f"the interview date must be YYYY-MM-DD (e.g. 2026-12-20), got {text!r}") from None


def interview_date(store: ProgressStore) -> date | None:
    """The stored interview date, or None (none set, or an unreadable value)."""
    value = store.get_setting(INTERVIEW_SETTING)
    try:
        return parse_day(value) if isinstance(value, str) else None
    except ValueError:
        return None


def set_interview_date(store: ProgressStore, day: date | None) -> None:
    """Store the interview date (None clears it)."""
    store.set_setting(INTERVIEW_SETTING, day.isoformat() if day is not None else None)


def interview_moment(day: date) -> datetime:
    """When readiness is read: noon UTC of the interview day."""
    return datetime.combine(day, time(INTERVIEW_HOUR), tzinfo=timezone.utc)


def _day_start(day: date) -> datetime:
    return datetime.combine(day, time(), tzinfo=timezone.utc)


def _today(now: datetime) -> date:
    return now.astimezone(timezone.utc).date()


# -- the plan as data ------------------------------------------------------------------------------

@dataclass(frozen=True)
class DayPlan:
    """One forecast day: new cards to learn, reviews (due and top-up), drills, whether a mock is due."""

    day: date
    new_cards: int
    reviews: int
    drills: tuple[str, ...] = ()
    mock: bool = False
    top_up: int = 0
    minutes: int = 0   # the time estimate (`estimate_minutes`)

    def to_json(self) -> dict:
        return {"day": self.day.isoformat(), "new_cards": self.new_cards, "reviews": self.reviews,
                "drills": list(self.drills), "mock": self.mock, "top_up": self.top_up, "minutes": self.minutes}


@dataclass(frozen=True)
class Task:
    """One line of today's plan and its progress: `done` of `target`."""

    kind: str       # "new", "reviews", "drill", "mock", "card" (a queued study-next card)
    label: str
    target: int
    done: int
    ref: str | None = None
    tried: bool = False   # a drill tried today without a pass: not done
    minutes: float = 0.0  # the time estimate of the whole task (`estimate_minutes`)

    @property
    def complete(self) -> bool:
        return self.done >= self.target


@dataclass(frozen=True)
class TopicReadiness:
    """A topic's predicted recall on the interview day (`readiness`, 0..1), with its counts."""

    topic: str
    title: str
    readiness: float
    cards_seen: int
    cards: int
    drills_tried: int
    drills: int
    weakest: tuple[str, ...] = ()   # its cards and drills with the lowest predicted recall
    drills_mastered: int = 0        # passed, then passed again on a later day in another form

    def to_json(self) -> dict:
        return {**asdict(self), "readiness": round(self.readiness, 3), "weakest": list(self.weakest)}


@dataclass(frozen=True)
class StudyPlan:
    """Everything the plan says for `today`. `mode`: "none" (no date set), "countdown",
    "interview-day" or "after" (the date has passed: plain spaced review)."""

    mode: str
    today: date
    interview: date | None
    days_left: int | None
    new_per_day: int
    tasks: tuple[Task, ...]
    days: tuple[DayPlan, ...]
    readiness: tuple[TopicReadiness, ...]
    overall: float
    cannot_promise: tuple[str, ...] = ()
    cuts: tuple[dict, ...] = ()
    generated_at: datetime | None = None
    previews_today: tuple[int, int] = (0, 0)  # (cards, drills) practised ahead today, schedules untouched

    @property
    def progress(self) -> tuple[int, int]:
        """(done, target) over today's tasks, each capped at its target."""
        return (sum(min(t.done, t.target) for t in self.tasks), sum(t.target for t in self.tasks))

    @property
    def minutes_today(self) -> tuple[int, int]:
        """(planned, left): today's time estimate in minutes, in all and for what is not done yet."""
        planned = sum(t.minutes for t in self.tasks)
        left = sum(t.minutes * (1 - min(t.done, t.target) / t.target) if t.target else 0 for t in self.tasks)
        return round(planned), round(left)

    def to_json(self) -> dict:
        done, target = self.progress
        return {
            "mode": self.mode, "today": self.today.isoformat(),
            "interview": self.interview.isoformat() if self.interview else None,
            "days_left": self.days_left, "new_per_day": self.new_per_day,
            "today_plan": [{**asdict(t), "complete": t.complete} for t in self.tasks],
            "today_progress": {"done": done, "target": target},
            "today_minutes": dict(zip(("planned", "left"), self.minutes_today)),
            "days": [d.to_json() for d in self.days],
            "readiness": {"overall": round(self.overall, 3), "topics": [t.to_json() for t in self.readiness]},
            "cannot_promise": list(self.cannot_promise), "cuts": list(self.cuts),
            "practised_ahead_today": {"cards": self.previews_today[0], "drills": self.previews_today[1]},
            "generated_at": utc_iso(self.generated_at) if self.generated_at else None,
        }


# -- readiness -------------------------------------------------------------------------------------

def drill_topics(drills: Sequence[Any], deckset: Any) -> dict[str, str]:
    """Each drill's topic as a deck id: the deck most of its cards are in (the first on a tie); a
    drill without cards in the decks keeps its own topic name."""
    result = {}
    for d in drills:
        decks = [deckset.by_id[c].deck for c in d.cards if c in deckset.by_id]
        result[d.id] = Counter(decks).most_common(1)[0][0] if decks else d.topic
    return result


def readiness(store: ProgressStore, deckset: Any, drills: Sequence[Any], when: datetime,
              lang: str = "en") -> list[TopicReadiness]:
    """Per topic (deck), the mean predicted recall at `when` of its cards and drills, weakest first."""
    cards = store.fsrs_states("card")
    drill_states = store.fsrs_states("drill")
    mastered = {d for d, m in mastery(store, drills).items() if m.mastered}
    topics = drill_topics(drills, deckset)
    by_topic: dict[str, list[tuple[float, str, str]]] = {}
    titles = {d.id: d.display_title(lang) for d in deckset.decks}
    for c in deckset.cards:
        by_topic.setdefault(c.deck, []).append((recall_at(cards.get(c.id), when), "card", c.id))
    for d in drills:
        by_topic.setdefault(topics[d.id], []).append((recall_at(drill_states.get(d.id), when), "drill", d.id))
    result = []
    for topic, items in by_topic.items():
        card_items = [i for i in items if i[1] == "card"]
        drill_items = [i for i in items if i[1] == "drill"]
        weakest = tuple(ref for _, _, ref in sorted(items, key=lambda i: (i[0], i[2]))[:3])
        result.append(TopicReadiness(
            topic, titles.get(topic, topic), sum(r for r, _, _ in items) / len(items),
            sum(1 for _, _, ref in card_items if ref in cards), len(card_items),
            sum(1 for _, _, ref in drill_items if ref in drill_states), len(drill_items), weakest,
            sum(1 for _, _, ref in drill_items if ref in mastered)))
    result.sort(key=lambda t: (t.readiness, t.topic))
    return result


def _overall(topics: Sequence[TopicReadiness]) -> float:
    n = sum(t.cards + t.drills for t in topics)
    return sum(t.readiness * (t.cards + t.drills) for t in topics) / n if n else 0.0


# -- the forecast ----------------------------------------------------------------------------------

class _Sim:
    """Unfuzzed FSRS over copies of the current states, every review rated Good."""

    def __init__(self, states: dict[str, dict], learning_steps: bool) -> None:
        self.fsrs = (fsrs.Scheduler(enable_fuzzing=False) if learning_steps else
                     fsrs.Scheduler(learning_steps=(), relearning_steps=(), enable_fuzzing=False))
        self.good = fsrs.Rating.Good
        self.cards = {k: fsrs.Card.from_dict(v) for k, v in states.items()}
        self._new_card = lambda key, at: fsrs.Card(card_id=abs(hash(key)) % (2 ** 31), due=at)

    def learn(self, key: str, at: datetime, day_end: datetime) -> None:
        """A new item, studied at `at` through its same-day learning steps."""
        card = self._new_card(key, at)
        card, _ = self.fsrs.review_card(card, self.good, at)
        while card.due <= day_end and int(card.state) != 2:
            card, _ = self.fsrs.review_card(card, self.good, max(card.due, at))
        self.cards[key] = card

    def review_due(self, at: datetime, day_end: datetime, keys: Sequence[str] | None = None) -> int:
        """Review (Good) everything due by `day_end` (or `keys`), repeating same-day steps; the count."""
        count = 0
        todo = [k for k, c in self.cards.items() if c.due <= day_end] if keys is None else list(keys)
        for key in todo:
            card = self.cards[key]
            when = max(at, min(card.due, day_end)) if keys is None else at
            card, _ = self.fsrs.review_card(card, self.good, when)
            count += 1
            while card.due <= day_end and int(card.state) != 2:
                card, _ = self.fsrs.review_card(card, self.good, max(card.due, when))
                count += 1
            self.cards[key] = card
        return count

    def due_by(self, day_end: datetime) -> list[str]:
        return sorted(k for k, c in self.cards.items() if c.due <= day_end)

    def below(self, when: datetime, keys) -> list[str]:
        return [k for k in keys if k in self.cards and self.fsrs.get_card_retrievability(self.cards[k], when)
                < TARGET_RECALL]


def _new_days(days_left: int) -> int:
    """Study days that take new cards: all but the last `FINAL_DAYS`, at least one."""
    return max(1, days_left - FINAL_DAYS)


def _quota(todo: int, days: int, cap: int) -> int:
    return min(cap, math.ceil(todo / days)) if todo > 0 else 0


def estimate_minutes(new_cards: int = 0, reviews: int = 0, drill_minutes: float = 0, mock: bool = False) -> float:
    """Roughly how long a day's work takes, in minutes (see `REVIEW_SECONDS` and the constants beside it)."""
    return (new_cards * NEW_CARD_SECONDS + reviews * REVIEW_SECONDS) / 60 + drill_minutes + \
        (MOCK_MINUTES if mock else 0)


def format_minutes(minutes: float, short: bool = False) -> str:
    """"45 min", "2 h 10 min"; `short`: "45m", "2h10"."""
    m = int(round(minutes))
    if short:
        return f"{m}m" if m < 60 else f"{m // 60}h{m % 60:02d}"
    return f"{m} min" if m < 60 else f"{m // 60} h" + (f" {m % 60} min" if m % 60 else "")


def _forecast(store: ProgressStore, deckset: Any, drills: Sequence[Any], now: datetime, interview: date,
              new_today: int, drills_today: Sequence[str]) -> tuple[list[DayPlan], list[str]]:
    """Day by day from today to the day before `interview`; also the forecast's own warnings."""
    today = _today(now)
    days_left = (interview - today).days
    card_sim = _Sim(store.fsrs_states("card"), learning_steps=True)
    drill_sim = _Sim(store.fsrs_states("drill"), learning_steps=False)
    unseen = [c.id for c in deckset.cards if c.id not in card_sim.cards]
    untried = [d.id for d in drills if d.id not in drill_sim.cards]
    drill_minutes = {d.id: d.target_minutes for d in drills}
    target = interview_moment(interview)
    plan: list[DayPlan] = []
    warnings: list[str] = []
    for i in range(min(days_left, HORIZON_DAYS)):
        day = today + timedelta(days=i)
        at = now if i == 0 else datetime.combine(day, time(INTERVIEW_HOUR), tzinfo=timezone.utc)
        end = _day_start(day + timedelta(days=1)) - timedelta(microseconds=1)
        reviews = card_sim.review_due(at, end)
        left = days_left - i
        if i == 0:
            n_new = min(new_today, len(unseen))
            new_drills = [d for d in drills_today if d in untried]
        else:
            n_new = _quota(len(unseen), max(1, _new_days(days_left) - i), MAX_NEW_PER_DAY) \
                if i < _new_days(days_left) else 0
            n_drill = _quota(len(untried), max(1, _new_days(days_left) - i), MAX_DRILLS_PER_DAY) \
                if i < _new_days(days_left) else 0
            new_drills = untried[:n_drill]
        for cid in unseen[:n_new]:
            card_sim.learn(cid, at, end)
        unseen = unseen[n_new:]
        day_drills = drill_sim.due_by(end)
        drill_sim.review_due(at, end)
        for did in new_drills:
            drill_sim.learn(did, at, end)
        untried = [d for d in untried if d not in new_drills]
        top_up = 0
        if left == 1:  # the last study day: top up whatever would be below target on the day
            low_cards = card_sim.below(target, list(card_sim.cards))
            top_up = card_sim.review_due(at, end, low_cards)
            low_drills = drill_sim.below(target, list(drill_sim.cards))
            drill_sim.review_due(at, end, low_drills)
            day_drills = list(dict.fromkeys(day_drills + low_drills))
        mock = left <= MOCK_DAYS
        day_drill_ids = tuple(dict.fromkeys(new_drills + day_drills))
        minutes = estimate_minutes(n_new, reviews + top_up, sum(drill_minutes.get(d, 0) for d in day_drill_ids), mock)
        plan.append(DayPlan(day, n_new, reviews + top_up, day_drill_ids, mock, top_up, round(minutes)))
        if reviews + top_up > HEAVY_REVIEWS:
            warnings.append(f"{day.isoformat()} has {reviews + top_up} reviews: more than a day's "
                            f"comfortable {HEAVY_REVIEWS}")
    heavy = [d for d in plan if d.minutes > HEAVY_MINUTES]
    if heavy:
        worst = max(heavy, key=lambda d: d.minutes)
        warnings.append(f"{len(heavy)} of the {len(plan)} days {'is' if len(heavy) == 1 else 'are'} planned at "
                        f"more than {format_minutes(HEAVY_MINUTES)} of study (the longest, {worst.day.isoformat()}: "
                        f"about {format_minutes(worst.minutes)} for {worst.new_cards} new cards, {worst.reviews} "
                        f"reviews and {len(worst.drills)} drills)")
    return plan, warnings


# -- today -----------------------------------------------------------------------------------------

def _extras(store: ProgressStore, today: date) -> dict:
    extra = store.get_setting(EXTRA_SETTING)
    if not isinstance(extra, dict) or extra.get("day") != today.isoformat():
        return {"cards": [], "drills": [], "at": None}
    return extra


def queue_study_next(store: ProgressStore, now: datetime, cards: Sequence[str] = (),
                     drills: Sequence[str] = ()) -> dict:
    """Add cards and drills (a mock's "study next") to today's plan; returns today's extras."""
    today = _today(now)
    extra = _extras(store, today)
    value = {"day": today.isoformat(), "at": extra.get("at") or utc_iso(now),
             "cards": list(dict.fromkeys(list(extra.get("cards", [])) + list(cards))),
             "drills": list(dict.fromkeys(list(extra.get("drills", [])) + list(drills)))}
    store.set_setting(EXTRA_SETTING, value)
    return value


def _today_tasks(store: ProgressStore, deckset: Any, drills: Sequence[Any], now: datetime,
                 new_target: int, drill_ids: Sequence[str], mock: bool) -> tuple[Task, ...]:
    today = _today(now)
    start = _day_start(today)
    reviews = store.reviews(since=start)
    new_done = sum(1 for r in reviews if r.state_before is None)
    review_done = sum(1 for r in reviews if r.state_before is not None and r.source == "user")
    in_decks = deckset.by_id
    due_now = sum(1 for cid, _ in store.iter_due(now, LEARNING_STATES + REVIEW_STATES) if cid in in_decks)
    extra_reviews = len(top_up(store, deckset, drills, now)[0])
    review_target = review_done + due_now + extra_reviews
    tasks = [Task("new", "new cards", new_target, new_done, minutes=estimate_minutes(new_cards=new_target)),
             Task("reviews", "reviews due" + (" and top-up" if extra_reviews else ""), review_target, review_done,
                  minutes=estimate_minutes(reviews=review_target))]
    attempts = store.attempts()
    tried_today = {a.drill_id for a in attempts if a.started_at >= start}
    passed_today = {a.drill_id for a in attempts if a.started_at >= start and a.passed}
    titles = {d.id: d.title for d in drills}
    target_minutes = {d.id: d.target_minutes for d in drills}
    again = set(again_in_another_form(store, drills, now))
    if again:
        states = mastery(store, drills)
        by_id = {d.id: d for d in drills}
    for did in drill_ids:  # done once passed: a failed try is tried, not done
        tried = did in tried_today and did not in passed_today
        if did in again:
            done = states[did].mastered
            forms = ", ".join(other_forms(by_id[did], drills))
            tasks.append(Task("drill", f"{titles[did]}: pass again in another form to count as mastered "
                                       f"({forms})", 1, int(done), did, tried=tried and not done,
                              minutes=target_minutes.get(did, 0)))
        else:
            tasks.append(Task("drill", titles.get(did, did), 1, int(did in passed_today), did, tried=tried,
                              minutes=target_minutes.get(did, 0)))
    extra = _extras(store, today)
    since = datetime.fromisoformat(extra["at"]) if extra.get("at") else start
    reviewed_since = {r.card_id for r in reviews if r.reviewed_at >= since and r.source == "user"}
    for cid in extra.get("cards", []):
        if cid in in_decks:
            tasks.append(Task("card", f"study next: {cid}", 1, int(cid in reviewed_since), cid,
                              minutes=estimate_minutes(reviews=1)))
    tried_since = {a.drill_id for a in attempts if a.started_at >= since}
    passed_since = {a.drill_id for a in attempts if a.started_at >= since and a.passed}
    for did in extra.get("drills", []):
        if did in titles and did not in drill_ids:
            tasks.append(Task("drill", f"study next: {titles[did]}", 1, int(did in passed_since), did,
                              tried=did in tried_since and did not in passed_since,
                              minutes=target_minutes.get(did, 0)))
    if mock:
        finished = any(m.finished_at is not None and m.finished_at >= start for m in store.mocks())
        tasks.append(Task("mock", "mock interview (ppo-drill mock)", 1, int(finished),
                          minutes=estimate_minutes(mock=True)))
    return tuple(tasks)


def _drills_for_today(store: ProgressStore, drills: Sequence[Any], now: datetime, interview: date | None,
                      quota_untried: int, last_day: bool) -> list[str]:
    """Today's drills: never tried before today (in track order, up to `quota_untried`), then tried
    but never passed, then the core drills passed once before today but not yet mastered (to pass
    again in another form), then due by FSRS, weakest (lowest predicted recall on the day) first; on
    the last study day also every drill below target on the day."""
    start = _day_start(_today(now))
    attempts = store.attempts()
    before = {a.drill_id for a in attempts if a.started_at < start}
    passed = {a.drill_id for a in attempts if a.passed and a.started_at < start}
    states = store.fsrs_states("drill")
    ids = [d.id for d in drills]
    when = interview_moment(interview) if interview else now
    untried = [d for d in ids if d not in before][:quota_untried]
    failed = [d for d in ids if d in before and d not in passed]
    again = again_in_another_form(store, drills, now)
    end = _day_start(_today(now) + timedelta(days=1))
    due = [d for d in ids if d in states and datetime.fromisoformat(states[d]["due"]) < end]
    # a drill done again today has left the due list (its next due date moved on): keep it, done,
    # so today's plan never shrinks as it is worked through
    again_today = {a.drill_id for a in attempts if a.started_at >= start} & before
    due += [d for d in ids if d in again_today]
    if last_day:
        due += [d for d in ids if d in states and recall_at(states[d], when) < TARGET_RECALL]
    due.sort(key=lambda d: recall_at(states.get(d), when))
    return list(dict.fromkeys(untried + failed + again + due))


def again_in_another_form(store: ProgressStore, drills: Sequence[Any], now: datetime) -> list[str]:
    """The core drills passed once before today and not yet mastered (`cards.schedule.mastery`): today
    is a later day, so a pass in another form now makes them mastered. A drill whose family became
    mastered today stays listed, done, so the plan never shrinks as it is worked through."""
    today = _today(now)
    states = mastery(store, drills)
    return [d.id for d in drills if d.kind == "core" and states[d.id].since is not None and
            ((states[d.id].state == PASSED and states[d.id].since < today) or
             (states[d.id].state == MASTERED and states[d.id].since == today))]


def study_plan(store: ProgressStore, deckset: Any, drills: Sequence[Any], now: datetime, *,
               lang: str = "en", default_new_per_day: int | None = None,
               forecast: bool = True) -> StudyPlan:
    """The plan for the day containing `now` (see the module docstring)."""
    now = now.astimezone(timezone.utc)
    today = _today(now)
    interview = interview_date(store)
    plain = int(default_new_per_day if default_new_per_day is not None
                else store.get_setting(NEW_PER_DAY_SETTING, DEFAULT_NEW_PER_DAY))
    mode = ("none" if interview is None else "after" if today > interview
            else "interview-day" if today == interview else "countdown")
    days_left = (interview - today).days if interview else None
    when = interview_moment(interview) if mode in ("countdown", "interview-day") else now
    topics = readiness(store, deckset, drills, when, lang)
    cannot: list[str] = []
    cuts: list[dict] = []
    days: list[DayPlan] = []
    if mode == "countdown":
        start = _day_start(today)
        known = store.fsrs_states("card")
        new_done = {r.card_id for r in store.reviews(since=start) if r.state_before is None}
        unseen_at_start = [c for c in deckset.cards if c.id not in known or c.id in new_done]
        new_days = _new_days(days_left)
        needed = math.ceil(len(unseen_at_start) / new_days) if unseen_at_start else 0
        cap = max(MAX_NEW_PER_DAY, plain)
        new_target = min(needed, cap)
        if needed > cap:
            over = len(unseen_at_start) - cap * new_days
            cannot.append(f"{len(unseen_at_start)} new cards in {new_days} day{'s' if new_days != 1 else ''} "
                          f"is {needed} a day, more than {cap}; {over} cannot be learned and reviewed "
                          f"before the interview")
            cuts += _cut_cards(unseen_at_start, over, deckset, lang)
        attempts = store.attempts()
        tried_before = {a.drill_id for a in attempts if a.started_at < start}
        tried_ever = {a.drill_id for a in attempts}
        untried = [d for d in drills if d.id not in tried_before]  # the new drills of the days left, today's too
        never = [d for d in drills if d.id not in tried_ever]      # what is still to try
        first_today = len(untried) - len(never)                    # tried for the first time today
        drill_need = math.ceil(len(untried) / new_days) if untried else 0
        if drill_need > MAX_DRILLS_PER_DAY:
            room = max(0, MAX_DRILLS_PER_DAY - first_today) + MAX_DRILLS_PER_DAY * (new_days - 1)
            over = len(never) - room
            if over > 0:
                today_note = f" ({first_today} tried today)" if first_today else ""
                cannot.append(f"{len(never)} drills not tried yet{today_note}: at {MAX_DRILLS_PER_DAY} new drills "
                              f"a day, the {new_days} day{'s' if new_days != 1 else ''} with new work leave"
                              f"{'s' if new_days == 1 else ''} room for {room} more; {over} will not be tried")
                cuts.append({"kind": "drills", "what": [d.id for d in never[-over:]], "count": over,
                             "why": "last in the track, not tried yet"})
        drill_ids = _drills_for_today(store, drills, now, interview,
                                      min(drill_need, MAX_DRILLS_PER_DAY), days_left == 1)
        if days_left <= 1 and unseen_at_start:
            cannot.append("new cards learned the day before the interview get no spaced review: their "
                          "recall on the day rests on one sitting")
        tasks = _today_tasks(store, deckset, drills, now, new_target, drill_ids, days_left <= MOCK_DAYS)
        if forecast:
            days, warnings = _forecast(store, deckset, drills, now, interview,
                                       max(0, new_target - len(new_done)), drill_ids)
            cannot += warnings
        new_per_day = new_target
    else:
        new_per_day = 0 if mode == "interview-day" else plain

        remaining = Scheduler(store, deckset, clock=lambda: now, new_per_day=new_per_day).new_remaining(now)
        new_done = store.new_cards_since(_day_start(today))
        studied = store.fsrs_states("card")  # read once: each read parses every card's state
        unseen = sum(1 for c in deckset.cards if c.id not in studied)
        drill_ids = _drills_for_today(store, drills, now, None, 0, False)
        tasks = _today_tasks(store, deckset, drills, now, min(new_per_day, new_done + min(remaining, unseen)),
                             drill_ids, False)

    ahead = preview_counts(store, since=_day_start(today))
    return StudyPlan(mode, today, interview, days_left, new_per_day, tasks, tuple(days), tuple(topics),
                     _overall(topics), tuple(cannot), tuple(cuts), now, (ahead["cards"], ahead["drills"]))


def _cut_cards(unseen: Sequence[Any], over: int, deckset: Any, lang: str) -> list[dict]:
    """The `over` unseen cards last in the study order, grouped by deck (what to leave out)."""
    cut = list(unseen)[-over:]
    per_deck = Counter(c.deck for c in cut)
    return [{"kind": "cards", "deck": deck, "title": deckset.by_deck[deck].display_title(lang),
             "count": n, "why": "last in the study order"}
            for deck, n in per_deck.items()]


def top_up(store: ProgressStore, deckset: Any, drills: Sequence[Any], now: datetime) -> tuple[list[str], list[str]]:
    """On the last study day before the interview: the studied cards and drills, not due now, whose
    predicted recall on the day is below `TARGET_RECALL`, lowest first, as (card ids, drill ids).
    Reviewing them today is a real (early) review: it lifts their recall on the day. Empty on
    every other day."""
    interview = interview_date(store)
    if interview is None or (interview - _today(now)).days != 1:
        return [], []
    when = interview_moment(interview)

    def low(states: dict, ids: Sequence[str]) -> list[str]:
        ranked = [(recall_at(states[i], when), i) for i in ids if i in states
                  and datetime.fromisoformat(states[i]["due"]) > now]
        return [i for r, i in sorted(ranked) if r < TARGET_RECALL]

    return (low(store.fsrs_states("card"), [c.id for c in deckset.cards]),
            low(store.fsrs_states("drill"), [d.id for d in drills]))


def study_next_pending(store: ProgressStore, deckset: Any, now: datetime) -> list[str]:
    """Today's queued "study next" cards (`queue_study_next`) not reviewed since they were queued."""
    extra = _extras(store, _today(now))
    if not extra.get("cards"):
        return []
    since = datetime.fromisoformat(extra["at"]) if extra.get("at") else _day_start(_today(now))
    done = {r.card_id for r in store.reviews(since=since) if r.source == "user"}
    return [c for c in extra["cards"] if c in deckset.by_id and c not in done]


def plan_cards(store: ProgressStore, deckset: Any, drills: Sequence[Any], now: datetime) -> list[str]:
    """The cards today's plan still asks for once the due queue is empty, in order: the queued
    "study next" cards not reviewed yet (new ones too, beyond the new-card allowance), then the
    last-day top-up. Reviewing them is a real review."""
    return list(dict.fromkeys(study_next_pending(store, deckset, now) + top_up(store, deckset, drills, now)[0]))


def plan_new_per_day(store: ProgressStore, deckset: Any, drills: Sequence[Any], now: datetime) -> int | None:
    """The new-card allowance the plan sets for today (None when no interview date is counting down),
    for the scheduler's queue."""
    interview = interview_date(store)
    if interview is None or _today(now) > interview:
        return None
    return study_plan(store, deckset, drills, now, forecast=False).new_per_day


# -- practising ahead -------------------------------------------------------------------------------

def practise_ahead(store: ProgressStore, deckset: Any, drills: Sequence[Any], now: datetime,
                   limit: int = 20) -> tuple[list[str], list[str]]:
    """When nothing is due: the studied cards and drills not yet due whose predicted recall on the
    interview day (or now, without a date) is lowest, lowest first, as (card ids, drill ids). They are
    for a preview review: rating them must not change their schedules."""
    interview = interview_date(store)
    when = interview_moment(interview) if interview and _today(now) <= interview else now
    cards = store.fsrs_states("card")
    drill_states = store.fsrs_states("drill")

    def ranked(states: dict, ids: Sequence[str]) -> list[str]:
        pending = [i for i in ids if i in states and datetime.fromisoformat(states[i]["due"]) > now]
        return sorted(pending, key=lambda i: (recall_at(states[i], when), i))[:limit]

    return ranked(cards, [c.id for c in deckset.cards]), ranked(drill_states, [d.id for d in drills])


# -- text ------------------------------------------------------------------------------------------

def _pct(x: float) -> str:
    return f"{100 * x:.0f}%"


def format_study_plan(plan: StudyPlan, days: int = 14) -> str:
    """The plan as text (`ppo-drill plan`)."""
    if plan.mode == "none":
        head = ["No interview date set: plain spaced review.",
                "Set one with: ppo-drill plan --interview YYYY-MM-DD"]
    elif plan.mode == "after":
        head = [f"The interview was on {plan.interview.isoformat()}: back to plain spaced review "
                f"({plan.new_per_day} new cards a day)."]
    elif plan.mode == "interview-day":
        head = [f"Interview today ({plan.interview.isoformat()}): nothing new; a light review of what is due."]
    else:
        head = [f"Interview on {plan.interview.isoformat()}: {plan.days_left} day"
                f"{'s' if plan.days_left != 1 else ''} left ({plan.new_per_day} new card"
                f"{'s' if plan.new_per_day != 1 else ''} today)."]
    done, target = plan.progress
    planned, left = plan.minutes_today
    time_note = f", about {format_minutes(planned)} in all ({format_minutes(left)} left)" if planned else ""
    lines = head + ["", f"Today ({plan.today.isoformat()}): {done} of {target} done{time_note}"]
    for t in plan.tasks:
        mark = "x" if t.complete else " "
        amount = f" {t.done}/{t.target}" if t.kind in ("new", "reviews") else ""
        tried = " (tried today, not passed yet)" if t.tried else ""
        lines.append(f"  [{mark}] {t.label}{amount}{tried}")
    cards_ahead, drills_ahead = plan.previews_today
    if cards_ahead or drills_ahead:
        lines.append(f"  practised ahead: {cards_ahead} card{'s' if cards_ahead != 1 else ''}, {drills_ahead} "
                     f"drill{'s' if drills_ahead != 1 else ''} (previews: schedules unchanged)")
    if plan.cannot_promise:
        lines += ["", "What this plan cannot promise:"] + [f"  - {w}" for w in plan.cannot_promise]
    if plan.cuts:
        lines += ["", "What to cut:"]
        for c in plan.cuts:
            what = c.get("title") or ", ".join(c.get("what", []))
            lines.append(f"  - {c['count']} {c['kind']}: {what} ({c['why']})")
    if plan.days:
        lines += ["", "Day by day (new cards, reviews, drills, mock, about how long; today's row is what is "
                      "left of it, with the cards still in their learning steps that fall due before midnight UTC):"]
        for d in plan.days[:days]:
            extra = f"  top-up {d.top_up}" if d.top_up else ""
            lines.append(f"  {d.day.isoformat()}  new {d.new_cards:>3}  reviews {d.reviews:>3}  "
                         f"drills {len(d.drills):>2}  ~{format_minutes(d.minutes):<10}"
                         f"{'  mock' if d.mock else ''}{extra}".rstrip())
        if len(plan.days) > days:
            lines.append(f"  ... {len(plan.days) - days} more days")
    label = "on the day" if plan.mode in ("countdown", "interview-day") else "now"
    lines += ["", f"Readiness (predicted recall {label}): {_pct(plan.overall)}, weakest first:"]
    for t in plan.readiness:
        drills = f", drills {t.drills_tried}/{t.drills} tried, {t.drills_mastered} mastered" if t.drills else ""
        lines.append(f"  {_pct(t.readiness):>4}  {t.title}  (cards {t.cards_seen}/{t.cards} seen{drills})")
    if any(t.drills for t in plan.readiness):
        lines.append("  (a drill is mastered once passed again on a later day in another form: the other "
                     "framework, its fix-the-bug or test-writing twin, or from an empty file)")
    return "\n".join(lines)
