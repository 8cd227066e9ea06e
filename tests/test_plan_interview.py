"""The study plan to an interview date, driven with a fixed clock through weeks of following it in a
temp data folder: every card and drill seen and predicted recalled on the day, readiness rising, what a
plan too short cannot promise, practising ahead without touching schedules, the turn back to plain
review after the date, and `ppo-drill plan` / `stats --json`."""
from __future__ import annotations

import json
from datetime import date, datetime, timedelta, timezone

import pytest

from cards.decks.loader import load_decks
from cards.plan.interview import (TARGET_RECALL, format_minutes, format_study_plan, interview_date,
                                  interview_moment, plan_cards, plan_new_per_day, practise_ahead, queue_study_next,
                                  set_interview_date, study_plan, top_up)
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
            # written afresh each time (a pass in another form, as the plan asks of a drill passed once)
            record_check(store, drill_id=task.ref, framework="numpy", passed=True, mistakes=[],
                         code=f"answer = {t.isoformat()!r}",
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
    assert not {a, b} & {c.id for c in sch.queue(later)}  # neither is due: practising them is ahead
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
    same = ("days_left", "today_plan", "today_progress", "readiness", "days", "cannot_promise",
            "practised_ahead_today")
    assert {k: stats["plan"][k] for k in same} == {k: data[k] for k in same}  # the same figures
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
        record_check(store, drill_id=ref, framework="numpy", passed=True, mistakes=[], code="answer = 'today'",
                     started_at=START + timedelta(hours=1), finished_at=START + timedelta(hours=1),
                     elapsed_s=60, target_minutes=5, fuzz=False)
    evening = study_plan(store, deckset, drills, START + timedelta(hours=10), forecast=False)
    done = [t for t in evening.tasks if t.kind == "drill"]
    assert [t.ref for t in done] == planned and all(t.complete for t in done)
    assert evening.tasks[0] == morning.tasks[0]  # the new-card target holds through the day


# -- practising ahead and the last-day top-up from the command line --------------------------------

def _studied_not_due(store, card_ids, now, stability=1.2):
    """Cards reviewed a day before `now`, due a day after it, with a low predicted recall tomorrow."""
    import fsrs

    for i, cid in enumerate(card_ids):
        state = fsrs.Card(card_id=1000 + i, state=fsrs.State.Review, stability=stability, difficulty=6.0,
                          due=now + DAY, last_review=now - DAY).to_dict()
        store.record_review(cid, 3, now - DAY, state, state_before=None)


def test_a_preview_attempt_at_a_drill_changes_no_schedule(store, content):
    from cards.schedule.preview import preview_counts, previews

    deckset, drills = content
    gae = next(d for d in drills if d.id == "gae")
    record_check(store, drill_id="gae", framework="numpy", passed=True, mistakes=[], started_at=START - 3 * DAY,
                 finished_at=START - 3 * DAY, elapsed_s=60, target_minutes=gae.target_minutes, fuzz=False)
    assert practise_ahead(store, deckset, drills, START - 2 * DAY)[1] == ["gae"]
    drill_before, cards_before = store.fsrs_states("drill"), store.fsrs_states("card")
    attempts, reviews = len(store.attempts()), len(store.reviews())
    outcome = record_check(store, drill_id="gae", framework="numpy", passed=False,
                           mistakes=[("gae-forward-scan", "pitfall-gae-direction")], started_at=START - 2 * DAY,
                           finished_at=START - 2 * DAY, elapsed_s=30, target_minutes=gae.target_minutes,
                           fuzz=False, preview=True)
    assert outcome.preview and outcome.attempt_id is None and outcome.drill_due is None
    assert not outcome.cards_again  # a named mistake sends no card back from a preview
    assert store.fsrs_states("drill") == drill_before and store.fsrs_states("card") == cards_before
    assert len(store.attempts()) == attempts and len(store.reviews()) == reviews
    assert previews(store) == [{"kind": "drill", "ref": "gae", "at": previews(store)[0]["at"], "passed": False,
                                "mistakes": ["gae-forward-scan"], "framework": "numpy",
                                "code_key": previews(store)[0]["code_key"]}]
    assert preview_counts(store) == {"cards": 0, "drills": 1}
    # a preview does not count as today's planned drill either
    set_interview_date(store, START.date() + 10 * DAY)
    plan = study_plan(store, deckset, drills, START - 2 * DAY, forecast=False)
    assert all(not t.complete for t in plan.tasks if t.kind == "drill")
    assert plan.previews_today == (0, 1) and plan.to_json()["practised_ahead_today"] == {"cards": 0, "drills": 1}


def test_check_preview_from_the_command_line_changes_no_schedule(_private_data_dir):
    from types import SimpleNamespace

    from cards.schedule.preview import previews
    from tui.cli import build_parser
    from tui.commands import record_cli_check

    assert build_parser().parse_args(["check", "a.py", "--preview"]).preview
    assert build_parser().parse_args(["watch", "a.py", "--preview"]).preview
    from checker.report import Diagnosis, Report

    report = Report(drill="gae", framework="numpy", passed=False,
                    diagnoses=[Diagnosis("gae-forward-scan", "", "", "pitfall-gae-direction")])
    record_cli_check(report, SimpleNamespace(preview=True), "def gae(): pass\n")
    with open_store(_private_data_dir) as s:
        assert not s.attempts() and not s.fsrs_states("drill") and not s.reviews()
        assert [(e["kind"], e["ref"], e["passed"]) for e in previews(s)] == [("drill", "gae", False)]
    record_cli_check(report, SimpleNamespace(preview=False), "def gae(): pass\n")
    with open_store(_private_data_dir) as s:
        assert len(s.attempts()) == 1 and "gae" in s.fsrs_states("drill")
        assert [r.card_id for r in s.reviews()] == ["pitfall-gae-direction"]


def _cli(monkeypatch, capsys, argv, stdin, now):
    import io
    import sys

    import cards.cli

    monkeypatch.setattr(cards.cli, "_now", lambda: now)
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_review_ahead_previews_without_changing_schedules(monkeypatch, capsys, _private_data_dir, content):
    from cards.schedule.preview import previews

    deckset, _ = content
    deck = [c.id for c in deckset.cards if c.deck == "what-if"]
    with open_store(_private_data_dir) as s:
        set_interview_date(s, START.date() + 5 * DAY)
        _studied_not_due(s, deck, START)
        _studied_not_due(s, deck[:1], START, stability=0.5)  # the weakest on the day comes first
        before = s.fsrs_states("card")
        n_reviews = len(s.reviews())
        order = [c for c in practise_ahead(s, deckset, content[1], START)[0] if c in deck]
    assert order[0] == deck[0] and sorted(order) == sorted(deck)
    code, out, err = _cli(monkeypatch, capsys, ["review", "--deck", "what-if"], "", START)
    assert code == 0, err
    assert "No cards due." in out and "ppo-drill review --ahead" in out
    code, out, err = _cli(monkeypatch, capsys, ["review", "--deck", "what-if", "--ahead"], "\n3\n\n1\nq\n", START)
    assert code == 0, err
    assert f"Practising ahead: {len(deck)} cards" in out and "(a preview: not recorded)" in out
    assert out.index(deck[0]) < out.index("Good: a preview, the schedule is unchanged")
    assert "Previewed 2 cards; no schedule changed." in out
    with open_store(_private_data_dir) as s:
        assert s.fsrs_states("card") == before and len(s.reviews()) == n_reviews
        assert [(e["ref"], e["rating"]) for e in previews(s)] == [(order[0], 3), (order[1], 1)]


def test_review_tops_up_on_the_last_day_and_points_to_the_mock(monkeypatch, capsys, _private_data_dir, content):
    deckset, drills = content
    deck = [c.id for c in deckset.cards if c.deck == "what-if"]
    with open_store(_private_data_dir) as s:
        set_interview_date(s, START.date() + DAY)
        _studied_not_due(s, deck, START)
        low = top_up(s, deckset, drills, START)[0]
        assert set(low) == set(deck)
    code, out, err = _cli(monkeypatch, capsys, ["review", "--deck", "what-if"], "\n3\n" * len(deck), START)
    assert code == 0, err
    assert "on the last day, those below target" in out and f"Reviewed {len(deck)} cards." in out
    assert "Today's plan has a mock interview: ppo-drill mock." in out
    with open_store(_private_data_dir) as s:
        assert sorted(r.card_id for r in s.reviews(since=START - timedelta(minutes=1))) == sorted(deck)
        assert not top_up(s, deckset, drills, START + timedelta(hours=1))[0]
        recall = card_recall(s, deck, interview_moment(START.date() + DAY))
        assert min(recall.values()) >= TARGET_RECALL


def test_study_next_cards_are_served_by_review_beyond_the_new_card_allowance(monkeypatch, capsys,
                                                                           _private_data_dir, content):
    deckset, drills = content
    new_card, seen = deckset.cards[7].id, deckset.cards[8].id
    with open_store(_private_data_dir) as s:
        s.set_setting("new_per_day", 0)
        _studied_not_due(s, [seen], START)
        queue_study_next(s, START, cards=[new_card, seen])
        assert plan_cards(s, deckset, drills, START) == [new_card, seen]
    code, out, err = _cli(monkeypatch, capsys, ["review"], "\n3\n" * 3, START + timedelta(minutes=1))
    assert code == 0, err
    assert "a mock's study next" in out and "Reviewed 3 cards." in out  # the new card twice: its learning step
    with open_store(_private_data_dir) as s:
        assert {r.card_id for r in s.reviews(since=START)} == {new_card, seen}
        assert not plan_cards(s, deckset, drills, START + timedelta(minutes=2))
        plan = study_plan(s, deckset, drills, START + timedelta(minutes=2), forecast=False)
        assert all(t.complete for t in plan.tasks if t.kind == "card")


# -- what the plan says about the drills tried today, failed drills, and how long a day takes ---------

def test_drills_tried_today_are_neither_never_tried_nor_cut(store, content):
    """Six drills first tried today (the end of the track) are no longer counted as never tried, and
    what to cut never names them."""
    from cards.plan.interview import MAX_DRILLS_PER_DAY

    deckset, drills = content
    set_interview_date(store, START.date() + 5 * DAY)
    today = drills[-6:]
    for i, d in enumerate(today):
        record_check(store, drill_id=d.id, framework=d.frameworks[0], passed=True, mistakes=[],
                     started_at=START + timedelta(minutes=i), finished_at=START + timedelta(minutes=i),
                     elapsed_s=60, target_minutes=d.target_minutes, fuzz=False)
    plan = study_plan(store, deckset, drills, START + timedelta(hours=1), forecast=False)
    never = len(drills) - 6
    room = MAX_DRILLS_PER_DAY * 2  # 3 days with new work, today's included: its four taken by today's six
    warning = next(w for w in plan.cannot_promise if "drills" in w)
    assert warning.startswith(f"{never} drills not tried yet (6 tried today)"), warning
    assert warning.endswith(f"{never - room} will not be tried"), warning
    cut = next(c for c in plan.cuts if c["kind"] == "drills")
    assert cut["count"] == never - room and not set(cut["what"]) & {d.id for d in today}
    assert cut["what"][-1] == drills[-7].id  # the last one not tried yet


def test_a_failed_drill_does_not_tick_its_plan_item(store, content):
    deckset, drills = content
    set_interview_date(store, START.date() + 20 * DAY)
    plan = study_plan(store, deckset, drills, START, forecast=False)
    first = next(t for t in plan.tasks if t.kind == "drill")
    drill = next(d for d in drills if d.id == first.ref)
    record_check(store, drill_id=drill.id, framework=drill.frameworks[0], passed=False, mistakes=[],
                 started_at=START, finished_at=START, elapsed_s=60, target_minutes=drill.target_minutes, fuzz=False)
    plan = study_plan(store, deckset, drills, START + timedelta(minutes=5), forecast=False)
    task = next(t for t in plan.tasks if t.ref == drill.id)
    assert not task.complete and task.tried
    assert f"[ ] {task.label} (tried today, not passed yet)" in format_study_plan(plan)
    record_check(store, drill_id=drill.id, framework=drill.frameworks[0], passed=True, mistakes=[],
                 started_at=START + timedelta(minutes=10), finished_at=START + timedelta(minutes=10), elapsed_s=60,
                 target_minutes=drill.target_minutes, fuzz=False)
    plan = study_plan(store, deckset, drills, START + timedelta(minutes=15), forecast=False)
    task = next(t for t in plan.tasks if t.ref == drill.id)
    assert task.complete and not task.tried and f"[x] {task.label}\n" in format_study_plan(plan) + "\n"


def test_a_far_date_says_one_new_card_in_the_singular(store, content):
    deckset, drills = content
    set_interview_date(store, START.date() + 400 * DAY)
    plan = study_plan(store, deckset, drills, START, forecast=False)
    assert plan.new_per_day == 1
    assert "left (1 new card today)." in format_study_plan(plan)


def test_every_day_of_the_plan_says_about_how_long_it_takes(store, content):
    from cards.plan.interview import HEAVY_MINUTES, estimate_minutes

    deckset, drills = content
    set_interview_date(store, START.date() + 10 * DAY)
    plan = study_plan(store, deckset, drills, START)
    minutes = {d.id: d.target_minutes for d in drills}
    for day in plan.days:
        assert day.minutes == round(estimate_minutes(day.new_cards, day.reviews,
                                                     sum(minutes[d] for d in day.drills), day.mock))
        assert day.to_json()["minutes"] == day.minutes
    planned, left = plan.minutes_today
    tasks = plan.tasks
    assert planned == round(sum(t.minutes for t in tasks)) > 0 and left == planned  # nothing done yet
    assert planned == round(estimate_minutes(tasks[0].target, tasks[1].target,
                                             sum(minutes[t.ref] for t in tasks if t.kind == "drill")))
    text = format_study_plan(plan)
    assert f"about {format_minutes(planned)} in all" in text
    assert all(f"~{format_minutes(d.minutes)}" in text for d in plan.days)
    assert plan.to_json()["today_minutes"] == {"planned": planned, "left": left}
    assert any("more than 3 h" in w for w in plan.cannot_promise) == any(d.minutes > HEAVY_MINUTES
                                                                         for d in plan.days)
    # eighteen drills failed before today all come back today: a day far over three hours, and said
    for d in drills[:18]:
        record_check(store, drill_id=d.id, framework=d.frameworks[0], passed=False, mistakes=[],
                     started_at=START - DAY, finished_at=START - DAY, elapsed_s=60,
                     target_minutes=d.target_minutes, fuzz=False)
    heavy = study_plan(store, deckset, drills, START)
    assert heavy.days[0].minutes > HEAVY_MINUTES and heavy.minutes_today[0] > HEAVY_MINUTES
    warning = next(w for w in heavy.cannot_promise if "more than 3 h of study" in w)
    worst = max(heavy.days, key=lambda d: d.minutes)
    assert f"the longest, {worst.day.isoformat()}: about {format_minutes(worst.minutes)}" in warning
