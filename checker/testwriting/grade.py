"""`grade`: run a candidate's test file against every implementation of a test drill and turn the
outcomes into a `Report` that reads like any other check: one line per right answer (passed, or a
false alarm with its likely reason) and one per known bug (caught, by which tests, or missed, with a
nudge saying which input would expose it).

Every implementation gets its own sandboxed run of the whole test file; a run that does not finish
with a result (a crash, `os._exit`, a timeout, a forged frame the sandbox rejects) counts against the
candidate both ways: a right answer it did not pass is a false alarm, a bug it did not report failing
is not caught. So no behaviour of the test file can raise its score except tests that tell right from
wrong by what the implementations compute.
"""
from __future__ import annotations

import random
import re
import time
from pathlib import Path
from typing import Callable

from checker.budget import CheckBudget
from checker.report import (
    BugOutcome,
    CheckResult,
    Report,
    RightOutcome,
    RunError,
    TestFailure,
    TestGrade,
)
from checker.sandbox import Call, run_candidate
from checker.testwriting.implementations import FILENAME, MODULE, Implementation
from drills import get_drill

#: The harness that runs a test file's tests in the child: a module made there from its source (the child
#: is forked from the sandbox's zygote, which holds nothing of this package).
HARNESS = "ppo_drill_harness:run_tests"
_HERE = Path(__file__).resolve().parent


def _text(name: str) -> str:
    return (_HERE / name).read_text(encoding="utf-8")


def _preload(impl_source: str) -> tuple:
    return (("pytest", _text("pytest_shim.py"), "<pytest>"),
            ("ppo_drill_guard", _text("child_guard.py"), "<guard>"),
            ("ppo_drill_harness", _text("harness.py"), "<harness>"),
            (MODULE, impl_source, FILENAME))


def _rows(result) -> list[tuple] | None:
    """The harness's rows from a run, or None when the run did not end with a well-formed result."""
    if result.error is not None or not result.results:
        return None
    r = result.results[0]
    if not r.ok or not isinstance(r.value, list):
        return None
    rows = []
    for row in r.value:
        if not (isinstance(row, tuple) and len(row) == 4 and isinstance(row[0], str) and row[1] in
                ("passed", "failed", "error") and isinstance(row[2], str) and isinstance(row[3], int)):
            return None
        rows.append(row)
    return rows


def false_alarm_reason(message: str, line_text: str, rejects_model: bool, fails_every_right: bool = False) -> str:
    """Why a test probably failed a right answer, in words (empty when it cannot be told).
    `fails_every_right`: the test fails on every right answer, the model answer included, so what it
    expects is not what the drill computes (a wrong expected value, or a property the drill lacks)."""
    text = line_text.strip()
    exact = "==" in text and not re.search(r"approx|isclose|allclose|assert_close|round\(", text)
    if re.search(r"dtype", text + message):
        return ("it assumes a dtype: right answers may compute in float32 or float64; compare values, "
                "not dtypes")
    if re.search(r"\.shape|\bshape\b|\blen\(", text) or "shape" in message:
        return "it assumes a shape the drill does not promise"
    if fails_every_right:
        return ("its expected value disagrees with every right answer (they all fail it): work the expected "
                "value out again from the definition, on an input small enough to do by hand"
                + ("; it also compares floats exactly (==), where a tolerance (pytest.approx, np.allclose) "
                   "is safer" if exact else ""))
    if exact:
        return ("it compares floats exactly (==): right answers differ in the last digits; compare with a "
                "tolerance (pytest.approx, np.allclose, torch.testing.assert_close)")
    if re.search(r"\d\.\d{5,}", text) and not rejects_model:
        return ("it hard-codes a number that only one implementation produces to that many digits; derive "
                "the expected value from the definition or loosen the tolerance")
    if rejects_model:
        return "it fails the model answer too: the property it asserts is not one the drill asks for"
    return ""


class _Order:
    """Which implementation each run gets: the model answer first, the rest in a random order, so that a
    test file cannot tell from how many runs came before it which one it is given (each run is a child of
    the sandbox's zygote, which never holds an implementation: only the one under test reaches a run)."""

    def __init__(self, impls) -> None:
        self.impls = list(impls)
        rest = list(range(1, len(self.impls)))
        random.SystemRandom().shuffle(rest)
        self.order = [0] + rest  # the model answer first
        self.outcomes: dict[int, tuple] = {}
        self.current = -1

    def source(self, position: int) -> str:
        self.current = self.order[position]
        return self.impls[self.current].source


def grade(source: str, drill_id: str, framework: str, impls: tuple[Implementation, ...], *,
          runner: Callable = run_candidate, limits=None, filename: str = "test_answer.py") -> Report:
    """The report of the test file `source` for test drill `drill_id`, run against every implementation of
    `impls` (`implementations(drill_id, framework)`: the model answer first) by `runner`."""
    t0 = time.perf_counter()

    budget = CheckBudget(limits, time.perf_counter())
    lines = source.splitlines()
    report = Report(drill=drill_id, framework=framework, passed=False)
    runs = _Order(impls)
    for position in range(len(runs.order)):
        run_limits = budget.next_run()
        if run_limits is None:  # the check's time is up: what is left is not run, and counts against it
            report.error = RunError("timeout", (
                f"Your tests ran past the check's {budget.wall_s:g} s time limit (the runs of your file against "
                f"every implementation share it): they ran against {position} of {len(runs.order)} "
                "implementations and the rest were not run. Look for a test that waits, sleeps or loops."))
            break
        res = runner(source, HARNESS, [Call()], preload=_preload(runs.source(position)), filename=filename,
                     limits=run_limits)
        if position == 0:  # the model answer
            report.notes = list(res.notes)
            report.stdout = res.stdout
            if res.error is not None and not res.results:
                # Nothing reported against the model answer (a syntax error, an import that raised,
                # os._exit, a hang): the file is not a test suite yet; running it on the rest only costs time.
                err = res.error
                report.error = RunError(err.kind, err.message, err.line, getattr(err, "detail", "") or "")
                report.elapsed_ms = (time.perf_counter() - t0) * 1e3
                return report
        runs.outcomes[runs.current] = (_rows(res), res.error)

    drill = get_drill(drill_id)
    impls = runs.impls
    outcomes = {impls[i]: runs.outcomes.get(i, (None, None)) for i in range(len(impls))}
    model_rows = outcomes[impls[0]][0]
    if model_rows is not None and not model_rows:
        report.error = RunError("no-tests", "the file defines no test functions: name them test_... and give "
                                            "them no arguments")
        report.elapsed_ms = (time.perf_counter() - t0) * 1e3
        return report

    def line_text(n: int) -> str:
        return lines[n - 1] if 0 < n <= len(lines) else ""

    model_failed = {r[0] for r in (model_rows or []) if r[1] != "passed"}
    # which right answers each test fails: one that fails them all expects what the drill does not compute
    right_impls = [impl for impl in impls if impl.kind == "right"]
    fails_on: dict[str, int] = {}
    for impl in right_impls:
        for name in {r[0] for r in (outcomes[impl][0] or []) if r[1] != "passed"}:
            fails_on[name] = fails_on.get(name, 0) + 1
    right: list[RightOutcome] = []
    bugs: list[BugOutcome] = []
    unfinished = 0
    # Right answers first: a test that fails on a right answer (a false alarm) fails whatever it is given,
    # so its failing on a bug catches nothing; a bug counts as caught by the tests that pass on them all.
    ordered = sorted(outcomes.items(), key=lambda item: item[0].kind != "right")
    untrusted: set[str] = set()
    for impl, (rows, error) in ordered:
        if impl.kind == "right":
            if rows is None:
                why = (error.message if error is not None else "it was not run: the check's time ran out first"
                       if report.error is not None else "the test file did not report its results")
                msg = f"the tests did not finish against this right answer: {why}"
                failures = [TestFailure(None, msg)]
                unfinished += 1
            else:
                failures = [TestFailure(name, message, false_alarm_reason(message, line_text(ln), name in model_failed,
                                                                          fails_on.get(name) == len(right_impls)), ln)
                            for name, outcome, message, ln in rows if outcome != "passed"]
                msg = "; ".join(
                    f"{f.test} failed (line {f.line}): {f.message or 'assertion failed'}"
                    + (f" — {f.reason}" if f.reason else "") for f in failures[:3])
            ok = not failures
            untrusted.update(f.test for f in failures if f.test)
            right.append(RightOutcome(impl.id, impl.title, ok, failures))
            report.checks.append(CheckResult(f"right:{impl.id}", f"passes on {impl.title}", ok,
                                             "" if ok else "False alarm: " + msg))
        else:
            failing = [name for name, outcome, _, _ in (rows or []) if outcome != "passed"]
            by = [name for name in failing if name not in untrusted]
            caught = bool(by)
            nudge = drill.nudges.get(impl.id, "")
            bugs.append(BugOutcome(impl.id, impl.title, impl.card, caught, by, nudge))
            by_text = f" (by {', '.join(by[:3])}{' ...' if len(by) > 3 else ''})" if caught else ""
            card = f" Review: ppo-drill review (card {impl.card})." if impl.card else ""
            if caught:
                message = ""
            elif rows is None and error is None:
                message = "Not run: the check's time ran out before your tests reached it."
            elif failing:
                message = (f"Only tests that also fail on a right answer fail here ({', '.join(failing[:3])}"
                           f"{' ...' if len(failing) > 3 else ''}): a test that fails everywhere catches "
                           f"nothing. Fix the false alarms first. {nudge}{card}")
            else:
                message = f"No test catches it. {nudge}{card}"
            report.checks.append(CheckResult(f"catches:{impl.id}", f"catches: {impl.title} [{impl.id}]{by_text}",
                                             caught, message))
    caught_n = sum(b.caught for b in bugs)
    # false alarms are counted in tests (each test that fails on a right answer), not in right answers;
    # a file that did not finish against a right answer is one more, since no test of it can be named
    false_alarms = len(untrusted) + (1 if unfinished else 0)
    report.tests = TestGrade(caught_n, len(bugs), false_alarms, sum(not r.passed for r in right),
                             [r[0] for r in (model_rows or [])], bugs, right)
    report.passed = caught_n == len(bugs) and false_alarms == 0 and report.error is None
    report.elapsed_ms = (time.perf_counter() - t0) * 1e3
    return report
