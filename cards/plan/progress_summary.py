"""Where the candidate stands, as plain functions over the progress store: each drill's status and
best time (`drill_statuses()`), the streak of active days (`streak()`, `streak_before()`), the weakest
topics (`weakest_topics()`), and `format_seconds()`, the "m:ss" those times are shown in.

The dashboard, the drill list and `ppo-drill drills` show these; the stats screen's charts and
`ppo-drill stats` are `cards.plan.stats`. Reading only, no scheduling (that is `cards.schedule`)."""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, timezone
from typing import Iterable

from cards.progress.store import ProgressStore

NEVER, FAILED, PASSED = "never tried", "failed", "passed"


@dataclass(frozen=True)
class DrillStatus:
    """Where a candidate stands on one drill: `status` is NEVER, FAILED (tried, never passed) or
    PASSED; `best_s` is the fastest passing time (seconds from opening the drill to the check)."""

    drill_id: str
    status: str
    attempts: int = 0
    best_s: float | None = None
    last_at: datetime | None = None


def drill_statuses(store: ProgressStore, drill_ids: Iterable[str]) -> dict[str, DrillStatus]:
    """Status of each drill from its recorded attempts (app and CLI alike)."""
    by_drill: dict[str, list] = defaultdict(list)
    for attempt in store.attempts():
        by_drill[attempt.drill_id].append(attempt)
    result = {}
    for drill_id in drill_ids:
        rows = by_drill.get(drill_id, [])
        if not rows:
            result[drill_id] = DrillStatus(drill_id, NEVER)
            continue
        passed = [a for a in rows if a.passed]
        times = [a.elapsed_s for a in passed if a.elapsed_s is not None]
        result[drill_id] = DrillStatus(drill_id, PASSED if passed else FAILED, len(rows),
                                       min(times) if times else None,
                                       rows[-1].finished_at or rows[-1].started_at)
    return result


def _user_days(store: ProgressStore, since: date) -> set[date]:
    """UTC days from `since` on with a review by the candidate or a drill attempt."""
    days = {a.started_at.date() for a in store.attempts() if a.started_at.date() >= since}
    days |= {r.reviewed_at.date() for r in store.reviews(
        since=datetime.combine(since, time(), tzinfo=timezone.utc)) if r.source == "user"}
    return days


def streak_before(store: ProgressStore, today: date) -> int:
    """Consecutive active UTC days ending yesterday (0 when yesterday was idle). It cannot change
    until tomorrow, so a caller may keep it for the day: reading a long streak's history costs
    tenths of a second with a year of reviews."""
    window = 32
    while True:  # read only as much history as the streak needs
        since = today - timedelta(days=window)
        days = _user_days(store, since)
        day, count = today - timedelta(days=1), 0
        while day in days:
            count += 1
            day -= timedelta(days=1)
        if day > since or window > 3660:
            return count
        window *= 4


def streak(store: ProgressStore, today: date, before_today: int | None = None) -> int:
    """Consecutive UTC days with at least one review or drill attempt by the candidate, ending
    today, or yesterday when nothing has been done yet today (the streak is not broken until the
    day is over). Pass `before_today` (from `streak_before`) to look up only today."""
    if before_today is None:
        before_today = streak_before(store, today)
    return before_today + (1 if today in _user_days(store, today) else 0)


@dataclass(frozen=True)
class WeakTopic:
    """A topic with its misses out of its tries over the window (cards rated Again, failed checks)."""

    topic: str
    missed: int
    tried: int

    @property
    def rate(self) -> float:
        return self.missed / self.tried if self.tried else 0.0


def weakest_topics(store: ProgressStore, card_topics: dict[str, str], drill_topics: dict[str, str],
                   now: datetime, days: int = 30, limit: int = 3) -> list[WeakTopic]:
    """Topics with the highest share of misses over the last `days`: a card review rated Again
    (by the candidate or sent back by the checker) counts against `card_topics[card]`, a failed
    drill attempt against `drill_topics[drill]` (the dashboard gives both in one vocabulary, deck
    ids, so a card and a drill on the same subject add up). Topics with no miss are left out."""
    since = now - timedelta(days=days)
    missed: dict[str, int] = defaultdict(int)
    tried: dict[str, int] = defaultdict(int)
    for review in store.reviews(since=since):
        topic = card_topics.get(review.card_id)
        if topic:
            tried[topic] += 1
            missed[topic] += review.rating == 1
    for attempt in store.attempts():
        topic = drill_topics.get(attempt.drill_id)
        if topic and attempt.started_at >= since:
            tried[topic] += 1
            missed[topic] += not attempt.passed
    ranked = [WeakTopic(t, missed[t], tried[t]) for t in tried if missed[t]]
    ranked.sort(key=lambda w: (-w.rate, -w.missed, w.topic))
    return ranked[:limit]


def format_seconds(seconds: float | None) -> str:
    """"m:ss" (or "h:mm:ss") of the absolute value, "—" for None (callers mark overtime)."""
    if seconds is None:
        return "—"
    total = int(round(abs(seconds)))
    h, rem = divmod(total, 3600)
    m, s = divmod(rem, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"
