"""The loop from a checked attempt into the schedules: a named mistake moves its card's due date
(an Again review made by the checker, visible in history), and drills are spaced by outcome."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from cards.decks.loader import load_decks
from cards.progress.store import open_store
from cards.schedule.scheduler import DrillSchedule, Scheduler
from cards.schedule.training import AGAIN, GOOD, HARD, drill_rating, record_check

T0 = datetime(2026, 4, 1, 8, 0, tzinfo=timezone.utc)
CARD = "pitfall-gae-direction"


@pytest.fixture
def store(tmp_path):
    with open_store(tmp_path / "data") as s:
        yield s


def _check(store, when, *, passed=False, mistakes=(("gae-forward-scan", CARD),), elapsed=120.0,
           drill="gae"):
    return record_check(store, drill_id=drill, framework="numpy", passed=passed, mistakes=list(mistakes),
                        started_at=when - timedelta(seconds=elapsed), finished_at=when, elapsed_s=elapsed,
                        target_minutes=10, fuzz=False)


def test_named_mistake_moves_the_related_cards_due_date(store):
    sch = Scheduler(store, load_decks(), clock=lambda: T0, fuzz=False)
    sch.review(CARD, 3, now=T0)
    sch.review(CARD, 3, now=T0 + timedelta(minutes=10))
    out = sch.review(CARD, 3, now=T0 + timedelta(days=3))
    due_before = out.due
    when = T0 + timedelta(days=4)
    assert due_before > when + timedelta(days=3)  # a learned card, not due for days
    outcome = _check(store, when)
    assert outcome.cards_again == [CARD]
    due_after = store.card_states()[CARD][0]
    assert due_after < due_before and due_after <= when + timedelta(days=1)
    last = store.reviews(card_id=CARD)[-1]
    assert (last.source, last.rating, last.reviewed_at) == ("checker", 1, when)
    assert CARD in [c.id for c in sch.queue(now=due_after)]


def test_rerunning_a_wrong_answer_does_not_flood_the_queue(store):
    _check(store, T0)
    assert _check(store, T0 + timedelta(minutes=5)).cards_again == []
    assert _check(store, T0 + timedelta(hours=13)).cards_again == [CARD]
    assert [r.source for r in store.reviews(card_id=CARD)] == ["checker", "checker"]


def test_unknown_cards_are_ignored_but_the_attempt_is_kept(store):
    out = _check(store, T0, mistakes=[("no-such-mistake", "no-such-card"), ("common-x", None)])
    assert out.cards_again == []
    assert store.attempts()[-1].mistakes == ["no-such-mistake", "common-x"]


def test_drill_rating_rule():
    assert drill_rating(True, 599, 10) == GOOD
    assert drill_rating(True, 601, 10) == HARD
    assert drill_rating(False, 10, 10) == AGAIN
    assert drill_rating(True, None, 10) == GOOD


def test_drills_are_spaced_and_listed_as_due(store):
    _check(store, T0, passed=True, mistakes=(), drill="gae")           # Good
    _check(store, T0, passed=False, drill="policy-loss")              # Again
    schedule = DrillSchedule(store, clock=lambda: T0, fuzz=False)  # what the dashboard calls
    assert schedule.due(now=T0 + timedelta(hours=1)) == []  # nothing "due" minutes after a try
    next_day = T0 + timedelta(days=1)
    assert schedule.due(now=next_day) == ["policy-loss"]  # failed: tomorrow
    assert schedule.due(now=T0 + timedelta(days=2)) == ["policy-loss", "gae"]  # passed: in days
    assert schedule.due(now=next_day, drill_ids=["gae", "policy-loss", "value-loss"]) == [
        "policy-loss", "value-loss"]  # never tried drills follow


def test_drill_passed_late_is_hard_and_due_sooner_than_on_time(store):
    _check(store, T0, passed=True, mistakes=(), drill="gae", elapsed=300)
    _check(store, T0, passed=True, mistakes=(), drill="value-loss", elapsed=900)  # over 10 min target
    states = store.drill_states()
    assert states["value-loss"] < states["gae"]


def test_drill_states_from_minute_steps_graduate(store):
    legacy = DrillSchedule(store, clock=lambda: T0, fuzz=False)
    legacy.record("gae", GOOD, now=T0)  # old default steps: due in 10 minutes
    state = store.drill_state("gae")
    del state["sitting"]  # as versions that rated every check wrote it
    store.set_drill_state("gae", state)
    assert store.drill_states()["gae"] <= T0 + timedelta(minutes=10)
    _check(store, T0 + timedelta(minutes=20), passed=True, mistakes=(), drill="gae")
    assert store.drill_states()["gae"] >= T0 + timedelta(days=2)


def _fsrs(store, drill="gae"):
    state = store.drill_state(drill)
    return (state["stability"], state["difficulty"], state["due"], state["last_review"])


def test_a_sitting_of_failed_checks_and_a_pass_is_one_pass(tmp_path, store):
    """Checks until it passes are one review of the drill, rated by the pass: the same state as a
    single pass at the time of the last check, not four lapses that leave it at the top difficulty."""
    for k in range(4):
        _check(store, T0 + timedelta(minutes=3 * k))
    last = T0 + timedelta(minutes=12)
    _check(store, last, passed=True, mistakes=())
    with open_store(tmp_path / "once") as once:
        _check(once, last, passed=True, mistakes=())
        assert _fsrs(store) == _fsrs(once)
    assert store.drill_states()["gae"] >= last + timedelta(days=2)
    assert len(store.attempts()) == 5  # every check is still an attempt in the record


def test_a_failed_check_after_the_pass_keeps_the_sittings_pass(store):
    _check(store, T0, passed=True, mistakes=())
    passed = _fsrs(store)
    _check(store, T0 + timedelta(minutes=30))  # broken again while tidying up
    assert _fsrs(store)[:2] == passed[:2] and store.drill_states()["gae"] >= T0 + timedelta(days=2)


def test_a_check_after_the_sitting_is_a_new_review(store):
    _check(store, T0, passed=True, mistakes=())
    first = _fsrs(store)
    later = T0 + DrillSchedule.SITTING + timedelta(minutes=1)
    _check(store, later)  # failed, in a new sitting: a lapse of the drill passed before
    state = store.drill_state("gae")
    assert state["last_review"] != first[3] and state["sitting"]["before"]["last_review"] == first[3]
    assert store.drill_states()["gae"] <= later + timedelta(days=1)


@pytest.mark.parametrize("sitting", [{"started": "not a date", "rating": 3, "before": None},
                                     {"started": T0.isoformat(), "rating": 9, "before": None},
                                     {"started": T0.isoformat(), "rating": 3, "before": {"due": 1}}, "x"])
def test_a_sitting_that_cannot_be_read_starts_a_new_one(store, sitting):
    _check(store, T0, passed=True, mistakes=())
    state = store.drill_state("gae")
    state["sitting"] = sitting
    store.set_drill_state("gae", state)
    _check(store, T0 + timedelta(minutes=5))
    assert store.drill_state("gae")["sitting"]["started"] == (T0 + timedelta(minutes=5)).isoformat()
