"""The study plan to an interview date, driven with a fixed clock through weeks of following it in a
temp data folder: every card and drill seen and predicted recalled on the day, readiness rising, what a
plan too short cannot promise, practising ahead without touching schedules, the turn back to plain
review after the date, and `ppo-drill plan` / `stats --json`."""
from __future__ import annotations

import json
from datetime import date, datetime, timedelta, timezone

import pytest

from cards.decks.loader import load_decks
from cards.plan.interview import (TARGET_RECALL, interview_date, interview_moment, plan_new_per_day,
                                  practise_ahead, queue_study_next, set_interview_date, study_plan, top_up)
from cards.progress.store import open_store
from cards.schedule.recall import card_recall, drill_recall
from cards.schedule.scheduler import Scheduler
from cards.schedule.training import record_check
from drills import load_drills
from tui.cli import main

START = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)
DAY = timedelta(days=1)


@pytest.fixture
def store(tmp_path):
    with open_store(tmp_path / "data") as s:
        yield s


@pytest.fixture(scope="module")
def content():
    return load_decks(), load_drills()


def _follow_day(store, deckset, drills, now):
    """Do today's plan as a diligent candidate: every queued card (Good), the top-up, every planned
    drill (passed in time) and the mock when planned. Returns the plan as it stood in the morning."""
    plan = study_plan(store, deckset, drills, now, forecast=False)
    sch = Scheduler(store, deckset, clock=lambda: now, fuzz=False,
                    new_per_day=plan_new_per_day(store, deckset, drills, now))
    t = now
    by_id = {d.id: d for d in drills}
    for task in plan.tasks:
        if task.kind == "drill" and not task.complete:
            record_check(store, drill_id=task.ref, framework="numpy", passed=True, mistakes=[],
                         started_at=t, finished_at=t + timedelta(minutes=3), elapsed_s=180,
                         target_minutes=by_id[task.ref].target_minutes, fuzz=False, scheduler=sch)
            t += timedelta(minutes=4)
        if task.kind == "mock" and not task.complete:
            store.record_mock(seed=1, started_at=t, finished_at=t + timedelta(minutes=45), payload={})
            t += timedelta(minutes=45)
    for _ in range(2000):
        card = sch.next_card(t) or next((deckset.by_id[c] for c in top_up(store, deckset, drills, t)[0]), None)
        if card is None:
            break
        sch.review(card.id, 3, now=t)
        t += timedelta(minutes=1)
    after = study_plan(store, deckset, drills, t, forecast=False)
    assert all(task.complete for task in after.tasks), [t for t in after.tasks if not t.complete]
    return plan


def test_following_a_three_week_plan_gets_everything_recalled_on_the_day(store, content):
    deckset, drills = content
    interview = date(2026, 3, 23)
    set_interview_date(store, interview)
    assert interview_date(store) == interview
    first = study_plan(store, deckset, drills, START)
    assert first.mode == "countdown" and first.days_left == 21 and not first.cannot_promise
    assert sum(d.new_cards for d in first.days) == len(deckset.cards)  # every card planned to be learned
    assert [d.mock for d in first.days][-3:] == [False, True, True]
    assert first.days[-1].top_up >= 0 and all(d.new_cards == 0 for d in first.days[-2:])
    assert {d for day in first.days for d in day.drills} == {d.id for d in drills}
    assert first.overall == 0.0

    now, overall = START, []
    while now.date() < interview:
        plan = _follow_day(store, deckset, drills, now)
        assert plan.days_left == (interview - now.date()).days
        overall.append(study_plan(store, deckset, drills, now + DAY / 2, forecast=False).overall)
        now += DAY
    assert overall[-1] > overall[0] and overall[-1] >= TARGET_RECALL
    when = interview_moment(interview)
    cards = card_recall(store, [c.id for c in deckset.cards], when)
    drill_r = drill_recall(store, [d.id for d in drills], when)
    assert min(cards.values()) >= TARGET_RECALL, min(cards.items(), key=lambda kv: kv[1])
    assert min(drill_r.values()) >= TARGET_RECALL, min(drill_r.items(), key=lambda kv: kv[1])

    day_of = study_plan(store, deckset, drills, now)
    assert day_of.mode == "interview-day" and day_of.new_per_day == 0 and day_of.days_left == 0
    assert all(t.readiness >= TARGET_RECALL for t in day_of.readiness)

    later = study_plan(store, deckset, drills, now + 3 * DAY)
    assert later.mode == "after" and later.new_per_day == 20 and not later.days
    assert plan_new_per_day(store, deckset, drills, now + 3 * DAY) is None


def test_readiness_is_weakest_first_and_moves_with_reviews(store, content):
    deckset, drills = content
    set_interview_date(store, date(2026, 3, 20))
    sch = Scheduler(store, deckset, clock=lambda: START, fuzz=False)
    gae = [c.id for c in deckset.cards if c.deck == "gae"]
    for cid in gae:
        sch.review(cid, 3, now=START)
        sch.review(cid, 3, now=START + timedelta(minutes=10))
    plan = study_plan(store, deckset, drills, START + timedelta(hours=1))
    topics = [t.topic for t in plan.readiness]
    assert topics[-1] == "gae" and plan.readiness[-1].readiness > 0
    assert [t.readiness for t in plan.readiness] == sorted(t.readiness for t in plan.readiness)
    assert plan.readiness[-1].cards_seen == len(gae)


def test_a_plan_too_short_says_what_it_cannot_promise_and_what_to_cut(store, content):
    deckset, drills = content
    set_interview_date(store, START.date() + 3 * DAY)
    plan = study_plan(store, deckset, drills, START)
    assert plan.new_per_day == 40
    assert any("new cards" in w for w in plan.cannot_promise)
    cut_cards = sum(c["count"] for c in plan.cuts if c["kind"] == "cards")
    assert cut_cards == len(deckset.cards) - 40
    last_deck = deckset.decks[-1].id
    assert any(c.get("deck") == last_deck for c in plan.cuts)  # the end of the study order goes first
    drill_cut = next(c for c in plan.cuts if c["kind"] == "drills")
    assert drill_cut["what"][-1] == drills[-1].id


def test_practise_ahead_lists_lowest_recall_and_leaves_schedules_alone(store, content):
    deckset, drills = content
    set_interview_date(store, date(2026, 4, 1))
    sch = Scheduler(store, deckset, clock=lambda: START, fuzz=False)
    a, b = deckset.cards[0].id, deckset.cards[1].id
    for cid, rating in ((a, 3), (b, 4)):
        sch.review(cid, rating, now=START)
        sch.review(cid, rating, now=START + timedelta(minutes=10))
    later = START + timedelta(hours=2)
    assert sch.queue(later) or True
    before = store.fsrs_states("card")
    cards, _ = practise_ahead(store, deckset, drills, later)
    assert cards[:2] == [a, b]  # Good before Easy: lower predicted recall on the day
    assert store.fsrs_states("card") == before


def test_study_next_is_queued_into_today(store, content):
    deckset, drills = content
    set_interview_date(store, date(2026, 3, 20))
    card = deckset.cards[5].id
    queue_study_next(store, START, cards=[card], drills=[drills[-1].id])
    plan = study_plan(store, deckset, drills, START, forecast=False)
    queued = [t for t in plan.tasks if t.label.startswith("study next")]
    assert [t.ref for t in queued] == [card, drills[-1].id] and not any(t.complete for t in queued)
    Scheduler(store, deckset, clock=lambda: START, fuzz=False).review(card, 3, now=START + timedelta(minutes=5))
    plan = study_plan(store, deckset, drills, START + timedelta(minutes=6), forecast=False)
    assert next(t for t in plan.tasks if t.ref == card and t.kind == "card").complete
    assert not [t for t in study_plan(store, deckset, drills, START + DAY).tasks if t.label.startswith("study next")]


def test_plan_command_sets_the_date_and_stats_json_carries_it(capsys, _private_data_dir):
    assert main(["plan", "--interview", "not-a-date"]) == 2
    assert "YYYY-MM-DD" in capsys.readouterr().err
    assert main(["plan", "--interview", "2001-01-01"]) == 2
    capsys.readouterr()
    day = (datetime.now(timezone.utc) + 10 * DAY).date().isoformat()
    assert main(["plan", "--interview", day]) == 0
    out = capsys.readouterr().out
    assert f"Interview on {day}: 10 days left" in out and "Readiness" in out
    assert main(["plan", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["interview"] == day and data["days_left"] == 10 and len(data["days"]) == 10
    assert main(["stats", "--json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert stats["plan"]["interview"] == day and stats["plan"]["readiness"]["topics"]
    assert main(["plan", "--clear"]) == 0
    assert "No interview date set" in capsys.readouterr().out


def test_todays_plan_never_shrinks_as_it_is_done(store, content):
    deckset, drills = content
    set_interview_date(store, date(2026, 3, 20))
    first = drills[0]
    record_check(store, drill_id=first.id, framework="numpy", passed=True, mistakes=[],
                 started_at=START - 3 * DAY, finished_at=START - 3 * DAY, elapsed_s=60,
                 target_minutes=first.target_minutes, fuzz=False)
    morning = study_plan(store, deckset, drills, START, forecast=False)
    planned = [t.ref for t in morning.tasks if t.kind == "drill"]
    assert first.id in planned  # due again (FSRS), beside the never-tried ones
    for ref in planned:
        record_check(store, drill_id=ref, framework="numpy", passed=True, mistakes=[],
                     started_at=START + timedelta(hours=1), finished_at=START + timedelta(hours=1),
                     elapsed_s=60, target_minutes=5, fuzz=False)
    evening = study_plan(store, deckset, drills, START + timedelta(hours=10), forecast=False)
    done = [t for t in evening.tasks if t.kind == "drill"]
    assert [t.ref for t in done] == planned and all(t.complete for t in done)
    assert evening.tasks[0] == morning.tasks[0]  # the new-card target holds through the day
