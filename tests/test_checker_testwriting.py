"""Test-writing drills: a candidate's test file is graded against right implementations and every
catalogued mistake of the drill under test, in the sandbox, one run per implementation.

Content: every test drill's reference tests pass every right implementation and catch every known
bug, and its starter does not. Hostile test files never raise their score by anything but behaviour.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.warm_checker import check
from checker.sandbox import Limits
from checker.testwriting.grade import false_alarm_reason
from checker.testwriting.implementations import implementations, strip
from drills import get_drill, load_drills

HOSTILE = Path(__file__).parent / "hostile_tests"
TEST_DRILLS = [d for d in load_drills() if d.is_test]
CASES = [(d.id, fw) for d in TEST_DRILLS for fw in d.frameworks]


def test_every_test_drill_tests_one_core_drill_with_a_catalogue_in_its_frameworks():
    core = {d.id: d for d in load_drills() if d.kind == "core"}
    bases = [d.base for d in TEST_DRILLS]
    assert TEST_DRILLS, "no test-writing drill loaded"
    assert len(bases) == len(set(bases)), f"two test drills write the tests of one drill: {sorted(bases)}"
    for d in TEST_DRILLS:
        base = core.get(d.base)
        assert base is not None, f"{d.id}: its base {d.base!r} is not a core drill"
        assert base.mistakes, f"{d.id}: {d.base} has no catalogued mistakes for the tests to catch"
        assert set(d.frameworks) <= set(base.frameworks), f"{d.id}: a framework {d.base} does not have"


@pytest.mark.parametrize("drill_id,framework", CASES)
def test_reference_tests_catch_every_bug_and_pass_every_right_answer(drill_id, framework):
    d = get_drill(drill_id)
    report = check(d.solution(framework), drill=drill_id, framework=framework)
    t = report.tests
    assert report.error is None, report.render()
    assert t.false_alarms == 0, report.render()
    assert t.caught == t.known == len([m for m in d.mistakes if m.source(framework)]), report.render()
    assert len([r for r in t.right]) >= 2  # the model answer and at least one other style
    assert report.passed


@pytest.mark.parametrize("drill_id,framework", CASES)
def test_starter_catches_too_little(drill_id, framework):
    d = get_drill(drill_id)
    report = check(d.starter(framework), drill=drill_id, framework=framework)
    assert not report.passed and report.error is None
    assert report.tests.false_alarms == 0  # the starter's one test is right, just not enough
    missed = [c for c in report.checks if c.id.startswith("catches:") and not c.passed]
    assert missed and all("No test catches it." in c.message for c in missed)


def test_the_drill_is_found_from_the_test_file():
    report = check(get_drill("test-gae").solution("numpy"))
    assert report.drill == "test-gae" and report.framework == "numpy"


def test_implementations_hide_comments_docstrings_and_file_names():
    for impl in implementations("test-gae", "numpy"):
        assert "#" not in impl.source and '"""' not in impl.source
    assert strip('"""doc"""\ndef f():\n    """doc"""\n    return 1  # note\n') == "def f():\n    return 1\n"


def test_every_mistake_has_a_nudge():
    for d in TEST_DRILLS:
        assert set(d.nudges) == {m.id for m in d.mistakes}


def test_false_alarm_reasons():
    assert "exactly" in false_alarm_reason("", "    assert adv[0] == 5.35288", False)
    assert "dtype" in false_alarm_reason("", "    assert adv.dtype == np.float64", False)
    assert "shape" in false_alarm_reason("", "    assert adv.shape == (4,)", False)
    assert "hard-codes" in false_alarm_reason("", "    assert np.isclose(adv[0], 5.352881234)", False)
    assert "model answer too" in false_alarm_reason("", "    assert np.isclose(x, y)", True)


def grade_hostile(name, **kw):
    return check((HOSTILE / name).read_text(), drill="test-gae", framework="numpy", **kw)


def test_exact_equality_and_dtype_assumptions_are_false_alarms_with_reasons():
    report = grade_hostile("exact_equality.py")
    assert not report.passed and report.tests.false_alarms >= 1
    text = " ".join(c.message for c in report.checks if c.id.startswith("right:") and not c.passed)
    assert "dtype" in text


@pytest.mark.parametrize("name", ["exit_at_import.py", "oracle_import.py"])
def test_a_file_that_never_reports_is_an_error_not_a_score(name):
    report = grade_hostile(name)
    assert not report.passed and report.error is not None and report.tests is None
    if name == "oracle_import.py":
        assert "may not import" in report.error.message


def test_dying_instead_of_failing_catches_nothing():
    report = grade_hostile("exit_when_wrong.py")
    assert not report.passed and report.tests.caught == 0


@pytest.mark.parametrize("name", ["forged_results.py", "always_fails.py", "reads_the_source.py"])
def test_forging_or_failing_everything_is_never_a_pass(name):
    report = grade_hostile(name)
    assert not report.passed
    if report.tests is not None:
        assert report.tests.false_alarms >= 1
        assert report.tests.caught_share == 0.0


def test_a_hanging_test_file_is_stopped_once():
    report = grade_hostile("sleeps_forever.py", limits=Limits(wall_s=1.0, cpu_s=2))
    assert not report.passed and report.error is not None and report.error.kind == "timeout"
    assert report.elapsed_ms < 5000  # stopped on the model answer, not once per implementation


def test_one_time_limit_bounds_every_run_of_a_test_file():
    """A file that passes on the model answer and sleeps on every bug, each time under a run's limit: the
    runs share the check's one limit, so the check ends near it, says which limit ended it, and counts
    the implementations it never reached against the file."""
    limits = Limits(wall_s=2.0, cpu_s=2)
    report = grade_hostile("sleeps_after_the_first_run.py", limits=limits)
    assert not report.passed and report.error is not None and report.error.kind == "timeout", report.render()
    assert "2 s time limit" in report.error.message and "were not run" in report.error.message
    assert report.elapsed_ms < 5000, report.elapsed_ms  # one limit, not one per implementation (13 x 1.5 s)
    assert any("Not run" in c.message for c in report.checks if not c.passed)


def test_failed_test_file_rating_follows_the_share_caught():
    from cards.schedule.training import AGAIN, GOOD, HARD, drill_rating
    from checker.report import TestGrade

    def share(caught, known, false_alarms):
        return TestGrade(caught, known, false_alarms, 0).caught_share

    assert drill_rating(False, None, 10, share(7, 8, 0)) == HARD
    assert drill_rating(False, None, 10, share(2, 8, 0)) == AGAIN
    assert drill_rating(False, None, 10, share(8, 8, 1)) == AGAIN
    assert drill_rating(True, 60, 10, share(8, 8, 0)) == GOOD
    assert share(0, 0, 0) is None  # an answer, not a test file: no share


def test_report_json_round_trip_keeps_the_grading():
    from checker.report import report_from_json

    report = check(get_drill("test-value-loss").starter("numpy"), drill="test-value-loss", framework="numpy")
    again = report_from_json(report.to_json())
    assert again.tests == report.tests and "caught 1 of" in again.render()


def test_a_test_that_fails_on_right_answers_catches_nothing():
    """A catch is a failure on a bug by a test that passes on every right answer: `assert False`
    fails on each bug too, and is a false alarm, not nine catches."""
    report = grade_hostile("always_fails.py")
    t = report.tests
    assert not report.passed and t.false_alarms >= 1 and t.caught == 0
    assert all(not b.caught and b.by == [] for b in t.bugs)
    first = next(c for c in report.checks if c.id.startswith("catches:"))
    assert "fail on a right answer" in first.message
    # beside tests that do their job, it takes nothing away from what they catch
    good = get_drill("test-gae").solution("numpy")
    report = check(good + "\n\ndef test_always_fails():\n    assert False\n", drill="test-gae", framework="numpy")
    t = report.tests
    assert not report.passed and t.false_alarms >= 1 and t.caught == t.known
    assert all("test_always_fails" not in b.by for b in t.bugs)


def test_a_wrong_expected_value_is_named_as_such_and_false_alarms_count_tests():
    """A test whose expected value is wrong fails every right answer: the reason says the expected value
    disagrees with every right answer (not only "use a tolerance"), and the count of false alarms is the
    number of tests that raise them (one here), not the number of right answers they fail."""
    source = (
        "import numpy as np\nfrom solution import compute_gae\n\n\n"
        "def test_one_step():\n"
        "    adv, ret = compute_gae(np.array([1.0]), np.array([0.5, 0.0]), np.array([1.0]), gamma=0.99, lam=0.95)\n"
        "    assert float(adv[0]) == 0.7  # the right value is 1.0 - 0.5 = 0.5\n\n\n"
        "def test_one_step_approx():\n"
        "    import pytest\n"
        "    adv, ret = compute_gae(np.array([1.0]), np.array([0.5, 0.0]), np.array([1.0]), gamma=0.99, lam=0.95)\n"
        "    assert float(adv[0]) == pytest.approx(0.7)\n\n\n"
        "def test_returns_add_values():\n"
        "    r = np.array([1.0, 2.0]); v = np.array([0.5, 0.25, 0.0]); d = np.zeros(2)\n"
        "    adv, ret = compute_gae(r, v, d, gamma=0.9, lam=0.8)\n"
        "    assert np.allclose(ret, adv + v[:2])\n")
    report = check(source, drill="test-gae", framework="numpy")
    t = report.tests
    rights = len(t.right)
    assert rights >= 3 and t.right_failed == rights
    assert t.false_alarms == 2  # two tests raise them, on every right answer
    assert "2 false alarms (2 tests that fail on" in report.render()
    failures = [f for r in t.right for f in r.failures]
    assert {f.test for f in failures} == {"test_one_step", "test_one_step_approx"}
    for f in failures:
        assert "expected value disagrees with every right answer" in f.reason, f
    exact = next(f for f in failures if f.test == "test_one_step")
    approx = next(f for f in failures if f.test == "test_one_step_approx")
    assert "compares floats exactly" in exact.reason and "exactly" not in approx.reason


def test_exact_equality_that_only_some_right_answers_fail_is_still_about_tolerance():
    assert "exactly" in false_alarm_reason("", "    assert adv[0] == 5.35288", False, fails_every_right=False)
    reason = false_alarm_reason("", "    assert adv[0] == 5.35288", True, fails_every_right=True)
    assert reason.startswith("its expected value disagrees with every right answer")
