"""cards.plan.progress_summary: drill status, streak and weakest topics, from a real store."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

from cards.decks.loader import load_decks
from cards.plan.progress_summary import (FAILED, NEVER, PASSED, drill_statuses, format_seconds, streak,
                                        streak_before, weakest_topics)
from cards.progress.store import open_store
from cards.schedule.scheduler import Scheduler

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)


def _attempt(store, drill, passed, when, elapsed=None):
    store.record_attempt(drill, framework="numpy", started_at=when, finished_at=when, passed=passed,
                         elapsed_s=elapsed)


def test_drill_status_and_best_time():
    with open_store() as store:
        _attempt(store, "gae", False, T0)
        _attempt(store, "gae", True, T0, 400.0)
        _attempt(store, "gae", True, T0, 300.0)
        _attempt(store, "policy-loss", False, T0)
        got = drill_statuses(store, ["gae", "policy-loss", "value-loss"])
    assert (got["gae"].status, got["gae"].attempts, got["gae"].best_s) == (PASSED, 3, 300.0)
    assert (got["policy-loss"].status, got["policy-loss"].best_s) == (FAILED, None)
    assert got["value-loss"].status == NEVER


def test_streak_counts_consecutive_days_and_survives_until_the_day_ends():
    with open_store() as store:
        for days_ago in (1, 2, 3, 5):
            _attempt(store, "gae", True, T0 - timedelta(days=days_ago))
        assert streak(store, T0.date()) == 3  # nothing yet today: yesterday's streak still counts
        _attempt(store, "gae", True, T0)
        assert streak(store, T0.date()) == 4
        assert streak(store, (T0 + timedelta(days=2)).date()) == 0


def test_weakest_topics_rank_by_share_missed():
    decks = load_decks()
    c1, c2 = decks.cards[0].id, decks.cards[1].id
    with open_store() as store:
        scheduler = Scheduler(store, decks, clock=lambda: T0, fuzz=False)
        scheduler.mark_again(c1, source="checker")
        scheduler.review(c1, 3)
        scheduler.review(c2, 3)
        _attempt(store, "gae", False, T0)
        _attempt(store, "old", False, T0 - timedelta(days=60))  # outside the window
        weak = weakest_topics(store, {c1: "Clipping", c2: "Numbers"},
                              {"gae": "gae", "old": "old-topic"}, T0 + timedelta(hours=1))
    assert [(w.topic, w.missed, w.tried) for w in weak] == [("gae", 1, 1), ("Clipping", 1, 2)]


def test_format_seconds():
    assert [format_seconds(x) for x in (None, 0, 59.6, 61, 3725)] == ["—", "0:00", "1:00", "1:01", "1:02:05"]


def test_a_cached_streak_base_gives_the_same_answer():
    with open_store() as store:
        for days_ago in (1, 2):
            _attempt(store, "gae", True, T0 - timedelta(days=days_ago))
        base = streak_before(store, T0.date())
        assert base == 2
        assert streak(store, T0.date(), base) == streak(store, T0.date()) == 2
        _attempt(store, "gae", True, T0)
        assert streak(store, T0.date(), base) == streak(store, T0.date()) == 3
