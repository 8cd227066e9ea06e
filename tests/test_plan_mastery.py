"""When a drill counts as mastered (`cards.schedule.mastery`): a pass, then a pass on a later day in another
form (the other framework, a fix-the-bug or test-writing twin, or the drill written again); the plan
asks for that second pass and readiness counts what is mastered."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from cards.decks.loader import load_decks
from cards.plan.interview import format_study_plan, set_interview_date, study_plan
from cards.progress.store import open_store
from cards.schedule.mastery import MASTERED, PASSED, TRIED, UNTRIED, code_key, mastery
from cards.schedule.training import record_check
from drills import get_drill, load_drills

START = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)
DAY = timedelta(days=1)
ANSWER = get_drill("gae").solution("numpy")
REWRITTEN = ANSWER.replace("last_adv", "carry")


@pytest.fixture
def store(tmp_path):
    with open_store(tmp_path / "data") as s:
        yield s


def check(store, drill_id, at, *, fw="numpy", code=ANSWER, passed=True, preview=False):
    record_check(store, drill_id=drill_id, framework=fw, passed=passed, mistakes=[], started_at=at,
                 finished_at=at + timedelta(minutes=3), elapsed_s=180, target_minutes=10, code=code,
                 fuzz=False, preview=preview)


def state(store, drill_id="gae"):
    return mastery(store, load_drills())[drill_id]


def test_code_key_ignores_layout_not_the_program():
    assert code_key(ANSWER) == code_key("# note\n" + ANSWER + "\n\n# end\n")
    assert code_key(ANSWER) != code_key(REWRITTEN)
    assert code_key("def f(:") == code_key("def f(:\n\n")


def test_one_pass_is_not_mastery_and_a_rerun_of_the_same_code_is_no_second_form(store):
    assert state(store).state == UNTRIED
    check(store, "gae", START, passed=False)
    assert state(store).state == TRIED
    check(store, "gae", START + timedelta(hours=1))
    assert (state(store).state, state(store).since) == (PASSED, START.date())
    check(store, "gae", START + timedelta(hours=2), code=REWRITTEN)
    assert state(store).state == PASSED, "the second form must come on a later day"
    check(store, "gae", START + DAY, code="# saved answer reopened\n" + ANSWER)
    assert state(store).state == PASSED, "re-running the passing answer is reading, not recall"
    check(store, "gae", START + 2 * DAY, code=ANSWER.replace("last_adv", "running"))
    assert (state(store).state, state(store).since) == (MASTERED, (START + 2 * DAY).date())


@pytest.mark.parametrize("drill_id, fw", [("gae", "torch"), ("fix-gae-direction", "numpy"),
                                          ("test-gae", "numpy")])
def test_the_other_framework_or_a_twin_on_a_later_day_masters_the_family(store, drill_id, fw):
    check(store, "gae", START)
    check(store, drill_id, START + DAY, fw=fw, code="other")
    for member in ("gae", "fix-gae-direction", "test-gae"):
        assert state(store, member).state == MASTERED, member
    assert state(store, "policy-loss").state == UNTRIED


def test_a_twin_first_then_the_core_drill(store):
    check(store, "fix-value-bootstrap", START, code="fixed")
    assert state(store).state == PASSED
    check(store, "gae", START + DAY)
    assert state(store).state == MASTERED


def test_a_passing_practice_ahead_counts(store):
    check(store, "gae", START)
    check(store, "gae", START + DAY, code=REWRITTEN, preview=True)
    assert store.attempts("gae")[-1].finished_at < START + DAY, "a preview writes no attempt"
    assert state(store).state == MASTERED


def test_the_plan_asks_for_another_form_and_readiness_counts_mastery(store):
    deckset, drills = load_decks(), load_drills()
    set_interview_date(store, (START + 20 * DAY).date())
    check(store, "gae", START)
    same_day = study_plan(store, deckset, drills, START + timedelta(hours=2), forecast=False)
    assert not [t for t in same_day.tasks if "another form" in t.label], "not on the day of the first pass"
    plan = study_plan(store, deckset, drills, START + DAY, forecast=False)
    (task,) = [t for t in plan.tasks if "another form" in t.label]
    assert task.ref == "gae" and not task.complete
    assert "gae (numpy/torch)" in task.label and "fix-gae-direction" in task.label and "test-gae" in task.label
    assert sum(t.drills_mastered for t in plan.readiness) == 0
    check(store, "gae", START + DAY + timedelta(hours=1), fw="torch", code="torch answer")
    plan = study_plan(store, deckset, drills, START + DAY + timedelta(hours=2), forecast=False)
    (task,) = [t for t in plan.tasks if "another form" in t.label]
    assert task.complete, "done today, and still listed so the plan never shrinks"
    family = [d.id for d in drills if (d.base or d.id) == "gae"]
    assert len(family) == 5 and sum(t.drills_mastered for t in plan.readiness) == len(family), \
        "gae with its fix-the-bug and test-writing twins"
    text = format_study_plan(plan)
    assert "mastered" in text and "in another form" in text
    assert plan.to_json()["readiness"]["topics"][0]["drills_mastered"] >= 0
    later = study_plan(store, deckset, drills, START + 3 * DAY, forecast=False)
    assert not [t for t in later.tasks if "another form" in t.label]
