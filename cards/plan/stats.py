"""The numbers behind the stats screen and `ppo-drill stats`: `reviews_per_day()`, `retention()`,
`due_forecast()`, `drill_times()`, `mock_scores()`, and `summary()` / `format_summary()` which
gather them (plus the pitfall profile and the drills due) as one JSON-ready object and as text.

Pure functions of the store and an injected `now`. Days are UTC calendar days, as the scheduler's
study day. Retention is the share of a user's ratings of cards in FSRS's Review state that were not
Again (Anki's "true retention"); learning steps and the checker's Again reviews are not recall
attempts, so they are left out of it but counted in the reviews per day.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import date, datetime, timedelta, timezone
from typing import Any, Iterable, Sequence

from cards.decks.loader import load_decks
from cards.plan.interview import study_plan
from cards.plan.profile import pitfall_profile
from cards.progress.store import ProgressStore, utc_iso
from cards.schedule.scheduler import DrillSchedule
from drills import load_drills

REVIEW_STATE = 2  # fsrs.State.Review (the store holds fsrs' to_dict() data)
AGAIN = 1


def _day(when: datetime) -> date:
    return when.astimezone(timezone.utc).date()


def _day_start(day: date) -> datetime:
    return datetime(day.year, day.month, day.day, tzinfo=timezone.utc)


@dataclass(frozen=True)
class DayReviews:
    """Reviews made on one UTC day: all, those rated Again, and who made them."""

    day: date
    reviews: int
    again: int
    user: int
    checker: int


@dataclass(frozen=True)
class RetentionPoint:
    """Recall of review-state cards in one period (a day, or a week starting Monday)."""

    start: date
    reviewed: int
    recalled: int

    @property
    def rate(self) -> float | None:
        return self.recalled / self.reviewed if self.reviewed else None


@dataclass(frozen=True)
class DrillTimes:
    """A drill's timed attempts, oldest first: (finished or started at, elapsed s, passed)."""

    drill_id: str
    title: str
    target_s: int | None
    attempts: tuple[tuple[datetime, float, bool], ...]

    @property
    def best_s(self) -> float | None:
        passed = [e for _, e, ok in self.attempts if ok]
        return min(passed) if passed else None

    @property
    def passes(self) -> int:
        return sum(1 for *_, ok in self.attempts if ok)


@dataclass(frozen=True)
class MockScore:
    """One finished mock interview's result."""

    mock_id: str
    finished_at: datetime
    seed: int
    minutes: int
    score: float
    correctness: float


def reviews_per_day(store: ProgressStore, now: datetime, days: int = 30) -> list[DayReviews]:
    """One entry per UTC day for the `days` days ending today (today last), zeros included."""
    today = _day(now)
    first = today - timedelta(days=days - 1)
    counts = {first + timedelta(days=i): [0, 0, 0, 0] for i in range(days)}
    for r in store.reviews(since=_day_start(first)):
        c = counts.get(_day(r.reviewed_at))
        if c is None:
            continue
        c[0] += 1
        c[1] += r.rating == AGAIN
        c[2 if r.source == "user" else 3] += 1
    return [DayReviews(d, *c) for d, c in counts.items()]


def retention(store: ProgressStore, now: datetime, days: int = 30, period: str = "day") -> list[RetentionPoint]:
    """Retention per day or per week (weeks start on Monday) over the last `days` days."""
    if period not in ("day", "week"):
        raise ValueError(f"period must be 'day' or 'week', got {period!r}")
    today = _day(now)
    first = today - timedelta(days=days - 1)

    def bucket(d: date) -> date:
        return d if period == "day" else d - timedelta(days=d.weekday())

    points: dict[date, list[int]] = {}
    d = first
    while d <= today:
        points.setdefault(bucket(d), [0, 0])
        d += timedelta(days=1)
    for r in store.reviews(since=_day_start(first)):
        if r.source != "user" or not r.state_before or r.state_before.get("state") != REVIEW_STATE:
            continue
        p = points.get(bucket(_day(r.reviewed_at)))
        if p is None:
            continue
        p[0] += 1
        p[1] += r.rating != AGAIN
    return [RetentionPoint(s, *p) for s, p in sorted(points.items())]


def overall_retention(points: Iterable[RetentionPoint]) -> float | None:
    """Pooled retention over the given points (None when nothing was reviewed)."""
    reviewed = recalled = 0
    for p in points:
        reviewed += p.reviewed
        recalled += p.recalled
    return recalled / reviewed if reviewed else None


def due_forecast(store: ProgressStore, now: datetime, days: int = 30,
                 card_ids: Iterable[str] | None = None) -> list[tuple[date, int]]:
    """Cards falling due on each of the next `days` UTC days (today first; cards already overdue
    count on today). New cards are not due and not counted. `card_ids` restricts to the cards
    still in the decks."""
    today = _day(now)
    keep = set(card_ids) if card_ids is not None else None
    counts = {today + timedelta(days=i): 0 for i in range(days)}
    for cid, (due, _state) in store.card_states().items():
        if keep is not None and cid not in keep:
            continue
        d = max(_day(due), today)
        if d in counts:
            counts[d] += 1
    return list(counts.items())


def drill_times(store: ProgressStore, drills: Sequence[Any] | None = None,
                attempts: Sequence[Any] | None = None) -> list[DrillTimes]:
    """Per drill (in the drills' order, then unknown ids), its timed attempts against its target
    (`attempts`: the store's, when already read)."""
    if drills is None:
        drills = load_drills()
    meta = {d.id: d for d in drills}
    rows: dict[str, list[tuple[datetime, float, bool]]] = {}
    for a in store.attempts() if attempts is None else attempts:
        if a.elapsed_s is None or a.elapsed_s < 0:  # untimed (or impossible) attempts have no time to plot
            continue
        rows.setdefault(a.drill_id, []).append((a.finished_at or a.started_at, float(a.elapsed_s), a.passed))
    order = [d.id for d in drills if d.id in rows] + sorted(set(rows) - set(meta))
    return [DrillTimes(did, getattr(meta.get(did), "title", did),
                       meta[did].target_minutes * 60 if did in meta else None, tuple(rows[did]))
            for did in order]


def mock_scores(store: ProgressStore) -> list[MockScore]:
    """Finished mock interviews with a scorecard, oldest first."""
    result = []
    for m in store.mocks():
        card = m.payload.get("scorecard") if isinstance(m.payload, dict) else None
        if m.finished_at is None or not isinstance(card, dict):
            continue
        result.append(MockScore(m.id, m.finished_at, m.seed, int(card.get("minutes", 0)),
                                float(card.get("score", 0.0)), float(card.get("correctness", 0.0))))
    return result


def _jsonable(value: Any) -> Any:
    if isinstance(value, datetime):
        return utc_iso(value)
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    return value


def summary(store: ProgressStore, now: datetime, days: int = 30, *, drills: Sequence[Any] | None = None,
            deckset: Any = None, pitfalls: int = 10) -> dict:
    """Everything the stats screen shows, as one JSON-serialisable object."""
    if drills is None:
        drills = load_drills()
    if deckset is None:
        deckset = load_decks()
    daily = retention(store, now, days, "day")
    weekly = retention(store, now, days, "week")
    per_day = reviews_per_day(store, now, days)
    attempts = store.attempts()
    times = drill_times(store, drills, attempts)
    checks: dict[str, tuple[int, int]] = {}  # every recorded check of a drill, timed or not: (all, passed)
    for a in attempts:
        n, ok = checks.get(a.drill_id, (0, 0))
        checks[a.drill_id] = (n + 1, ok + bool(a.passed))
    return {
        "generated_at": utc_iso(now),
        "days": days,
        "reviews_per_day": [_jsonable(asdict(d)) for d in per_day],
        "reviews_total": sum(d.reviews for d in per_day),
        "retention": {
            "overall": overall_retention(daily),
            "daily": [{"start": p.start.isoformat(), "reviewed": p.reviewed, "recalled": p.recalled,
                       "rate": p.rate} for p in daily],
            "weekly": [{"start": p.start.isoformat(), "reviewed": p.reviewed, "recalled": p.recalled,
                        "rate": p.rate} for p in weekly],
        },
        "due_forecast": [{"day": d.isoformat(), "due": n}
                         for d, n in due_forecast(store, now, 30, deckset.by_id.keys())],
        "drills_due": DrillSchedule(store).due(now),
        "drill_times": [{"drill": t.drill_id, "title": t.title, "target_s": t.target_s,
                         "best_s": t.best_s, "passes": t.passes,
                         "checks": checks.get(t.drill_id, (0, 0))[0], "checks_passed": checks.get(t.drill_id, (0, 0))[1],
                         "attempts": [{"at": utc_iso(at), "elapsed_s": round(e, 1), "passed": ok,
                                       "within_target": t.target_s is not None and ok and e <= t.target_s}
                                      for at, e, ok in t.attempts]} for t in times],
        "mocks": [_jsonable(asdict(m)) for m in mock_scores(store)],
        "pitfalls": [e.to_json() for e in pitfall_profile(store, limit=pitfalls)],
        "plan": study_plan(store, deckset, drills, now).to_json(),
    }


def _pct(rate: float | None) -> str:
    return "-" if rate is None else f"{100 * rate:.0f}%"


def format_summary(data: dict) -> str:
    """`summary()` as readable text (`ppo-drill stats`)."""
    per_day = data["reviews_per_day"]
    lines = [f"Reviews, last {data['days']} days: {data['reviews_total']} "
             f"(today {per_day[-1]['reviews'] if per_day else 0})",
             f"Retention (review cards, your ratings): {_pct(data['retention']['overall'])}"]
    for w in data["retention"]["weekly"]:
        if w["reviewed"]:
            lines.append(f"  week of {w['start']}: {_pct(w['rate'])} of {w['reviewed']}")
    busy = [d for d in per_day if d["reviews"]]
    if busy:
        lines.append("Reviews per day: " + ", ".join(f"{d['day'][5:]} {d['reviews']}" for d in busy[-10:]))
    forecast = data["due_forecast"]
    lines += ["", "Due in the next 30 days: " + str(sum(f["due"] for f in forecast))
              + (f" (today {forecast[0]['due']}, next 7 days {sum(f['due'] for f in forecast[:7])})"
                 if forecast else "")]
    lines.append("Drills due: " + (", ".join(data["drills_due"]) or "none"))
    lines += ["", "Drill solve times (best pass vs target):"]
    if not data["drill_times"]:
        lines.append("  no timed attempts yet")
    for t in data["drill_times"]:
        best = "-" if t["best_s"] is None else f"{t['best_s'] / 60:.1f} min"
        target = "-" if t["target_s"] is None else f"{t['target_s'] / 60:.0f} min"
        lines.append(f"  {t['drill']:<24} best {best:>9} / target {target:>6}  "
                     f"{t['passes']}/{len(t['attempts'])} timed passed"
                     + (f" ({t['checks_passed']}/{t['checks']} of all checks, untimed ones from the command "
                        "line or a paste included)" if t.get("checks", 0) > len(t["attempts"]) else ""))
    lines += ["", "Mock interviews:"]
    if not data["mocks"]:
        lines.append("  none finished yet (ppo-drill mock)")
    for m in data["mocks"]:
        lines.append(f"  {m['finished_at'][:10]}  score {m['score']:.1f}  "
                     f"(correctness {m['correctness']:.1f}%, {m['minutes']} min, seed {m['seed']})")
    lines += ["", "Pitfall profile (most frequent named mistakes):"]
    if not data["pitfalls"]:
        lines.append("  no mistakes named yet")
    for p in data["pitfalls"]:
        lines.append(f"  {p['count']:>3}x  {p['title']}  [{p['mistake']}]  last {p['last_seen'][:10]}"
                     f"  card {p['card'] or '-'}")
    plan = data.get("plan")
    if plan:
        lines += ["", "Study plan:"]
        if plan["interview"] is None:
            lines.append("  no interview date (ppo-drill plan --interview YYYY-MM-DD)")
        else:
            left = plan["days_left"]
            lines.append(f"  interview {plan['interview']}" + (f", {left} days left" if left >= 0 else ", passed")
                         + f"; today {plan['today_progress']['done']}/{plan['today_progress']['target']} done")
        topics = plan["readiness"]["topics"]
        lines.append(f"  readiness {100 * plan['readiness']['overall']:.0f}%; weakest: "
                     + ", ".join(f"{t['topic']} {100 * t['readiness']:.0f}%" for t in topics[:3]))
        ahead = plan.get("practised_ahead_today") or {}
        if ahead.get("cards") or ahead.get("drills"):
            lines.append(f"  practised ahead today: {ahead['cards']} cards, {ahead['drills']} drills "
                         f"(previews: schedules unchanged)")
    return "\n".join(lines)
