"""The checker as one object: a `Checker` is built once where checks are asked for (the `ppo-drill check`
and `watch` handlers, the app's warm worker, a test session) and checks answers with `check()`, which
returns a `Report`.

A check runs the candidate's function in the sandbox on the drill's examples, judges its results as they
arrive against the reference core (`checker.evaluation`), shrinks the first failure to the smallest
counterexample (`checker.shrinking`), and names the catalogued mistakes whose behaviour it matches
(`checker.catalogue`, `checker.diagnosis`); a test-writing drill's tests are graded
(`checker.testwriting`), a read-the-run sheet is read (`checker.runs`).

What a `Checker` keeps, and nothing else keeps: per drill, framework and seed a `DrillPlan` (examples,
calls, reference results, the judging plan, the reference on shrinking candidates, the last run's
timings); per drill and framework a `Catalogue` (the known mistakes and their results) and a test
drill's implementations; and the spare-fork policy: which sandbox child to fork ahead, between checks,
for the next check (`keep_warm`, `prepare`). Reference results are computed here, in the checker's own
process; only the candidate's function runs in the sandbox, so nothing the candidate's code does to
numpy or torch can change the verdict.
"""
from __future__ import annotations

import os
import time
from dataclasses import dataclass, replace
from typing import Callable, Iterator

from checker.budget import CheckBudget
from checker.catalogue import Catalogue
from checker.detect import detect
from checker.diagnosis import diagnoses
from checker.evaluation import Evaluation
from checker.plan import DrillPlan, Measured
from checker.report import CheckResult, Report, RunError
from checker.runs.grade import grade as grade_sheet
from checker.sandbox import Limits, fork_spare, prepare_parent, run_candidate
from checker.shrinking import shrink
from checker.specs import spec_for
from checker.testwriting import grade as grade_tests
from checker.testwriting.implementations import Implementation, implementations
from checker.wording import (counterexample, message, run_error, shown_failure, shrinkable,
                             signature_problem)
from drills import get_drill, load_drills

#: At most how many children a kept-warm check runs its examples in, side by side (each a slice of
#: them; the verdict is the one a single child gives). Two where there are two cores or more.
SPARE_PARTS = 2 if (os.cpu_count() or 1) >= 2 else 1


def parts_for(measured: Measured) -> int:
    """Slices for the next check of the same drill: two when the answer's own work (its calls, as
    last measured) outweighs judging their results here, which shares the cores with the children
    (on two cores, three busy processes only pay when the children's work dominates); else one."""
    return SPARE_PARTS if measured.answer_ms > 2 * measured.judging_ms + 20 else 1


@dataclass
class _NextRun:
    """The sandbox run the next check of a drill starts with (its plan's distinct calls), and its limits."""
    plan: DrillPlan
    limits: Limits | None


class Checker:
    """Checks answers; keeps each drill's plan and catalogue, and forks the next check's child ahead.

    `runner` runs an answer's function on calls (default: the sandbox, `checker.sandbox.run_candidate`,
    whose results are judged as they arrive; a runner given here is called plainly). Not thread-safe: one
    check at a time, as the CLI, `watch` and the worker ask for them."""

    def __init__(self, runner: Callable | None = None) -> None:
        self._runner = runner
        self._plans: dict[tuple[str, str, int], DrillPlan] = {}
        self._catalogues: dict[tuple[str, str], Catalogue] = {}
        self._implementations: dict[tuple[str, str], tuple[Implementation, ...]] = {}
        self._next: _NextRun | None = None

    # ---- what it keeps ------------------------------------------------------------------------
    def plan(self, drill_id: str, framework: str, seed: int = 0) -> DrillPlan:
        """The plan of a core drill (its spec's drill: a fix-the-bug drill shares its base's)."""
        key = (drill_id, framework, seed)
        plan = self._plans.get(key)
        if plan is None:
            plan = self._plans[key] = DrillPlan(spec_for(drill_id), framework, seed)
        return plan

    def catalogue(self, drill_id: str, framework: str) -> Catalogue:
        """The known mistakes of a core drill in `framework`, with what diagnosing has learnt of them."""
        key = (drill_id, framework)
        cat = self._catalogues.get(key)
        if cat is None:
            cat = self._catalogues[key] = Catalogue(spec_for(drill_id), framework)
        return cat

    def implementations(self, drill_id: str, framework: str) -> tuple[Implementation, ...]:
        """A test drill's right and buggy implementations (`checker.testwriting.implementations`)."""
        key = (drill_id, framework)
        impls = self._implementations.get(key)
        if impls is None:
            impls = self._implementations[key] = implementations(drill_id, framework)
        return impls

    def warm(self) -> None:
        """Draw every core drill's examples, compute their references and load its mistake catalogue, so
        the first check of any drill is as fast as the next ones."""
        for _ in self.warm_steps():
            pass

    def warm_steps(self) -> Iterator[str]:
        """`warm`, one drill and framework at a time (a tenth of a second or so each): yields "drill/framework"
        after each, so a caller with requests to serve (the app's worker) answers them in between."""
        for d in load_drills():
            if d.kind != "core":
                continue
            for fw in d.frameworks:
                self.plan(d.id, fw, 0).warm()
                self.catalogue(d.id, fw).variants()
                yield f"{d.id}/{fw}"

    # ---- checking -----------------------------------------------------------------------------
    def check(self, source: str, drill: str | None = None, framework: str | None = None, seed: int = 0,
              limits: Limits | None = None, filename: str = "answer.py", shrink_failure: bool = True) -> Report:
        """Check `source` against a drill (inferred from the code when not given). Raises DetectError when
        the drill or framework cannot be inferred (a usage problem, not a wrong answer).
        `shrink_failure=False` reports the smallest failing example as found, without re-running the answer
        on simpler ones (the verdict and the names are the same; the diagnosis bench uses it)."""
        t0 = time.perf_counter()
        drill_id, framework = detect(source, drill, framework)
        d = get_drill(drill_id)
        if d.is_run:  # an answer sheet, read as text: nothing of it runs
            return grade_sheet(source, d)
        run = self._runner or run_candidate
        if self._runner is None:
            prepare_parent()  # the zygote is up (again, after it died) before any clock of the check starts
        if d.is_test:  # the candidate wrote tests: grade them against right and buggy implementations
            return grade_tests(source, drill_id, framework, self.implementations(drill_id, framework),
                               runner=run, limits=limits, filename=filename)
        plan = self.plan(d.base or d.id, framework, seed)
        report = self._run_and_judge(plan, drill_id, source, run, limits, filename, shrink_failure)
        report.elapsed_ms = (time.perf_counter() - t0) * 1e3
        return report

    def _run_and_judge(self, plan: DrillPlan, drill_id: str, source: str, run: Callable, limits: Limits | None,
                       filename: str, shrink_failure: bool) -> Report:
        spec, framework = plan.spec, plan.framework
        kwargs: dict = {"filename": filename}
        if limits is not None:
            kwargs["limits"] = limits
        ev = Evaluation(spec, framework, plan.examples, plan.expected, plan.planned, plan.checks)

        def judge(r) -> None:
            for i in plan.owners[r.index]:
                ev.add(replace(r, index=i))

        t_run = time.perf_counter()  # the check's time limit runs from its first run
        if self._runner is None:  # the sandbox: results are judged as they arrive, while the answer runs on
            result = run(source, spec.function, plan.distinct, on_result=judge, **kwargs)
            plan.measured = Measured(result.timings.get("calls_total_ms", 0.0), ev.busy_ms, tuple(result.call_ms))
            self._next = _NextRun(plan, limits)
        else:
            result = run(source, spec.function, plan.distinct, **kwargs)
        result = _per_example(result, plan.owners)
        report = Report(drill=drill_id, framework=framework, passed=False, notes=list(result.notes),
                        stdout=result.stdout)
        err = result.error
        if err is not None and (err.kind in ("syntax", "missing-function") or err.call_index is None):
            report.error = run_error(err, plan.examples)  # nothing ran: no check to report on
            return report
        problem = signature_problem(spec, result.signature)
        if problem:
            report.error = RunError("signature", problem)
            return report

        results = {r.index: r for r in result.results}
        for i in sorted(results):
            ev.add(results[i])  # those not judged yet (a runner that does not stream)
        checks, failures = ev.finish(kept=results.keys())
        if err is not None:
            report.error = run_error(err, plan.examples)
        report.checks = [CheckResult(c.id, c.title, not failures.get(c.id), "") for c in checks]
        failed = [c for c in checks if failures.get(c.id)]
        failing: dict = {}
        if failed or report.error is not None:  # a right answer has nothing to diagnose
            passed = {c.id for c in checks if not failures.get(c.id)}
            report.diagnoses, report.unexplained, failing = diagnoses(
                self.catalogue(spec.drill_id, framework), plan, results, failures, passed)
        if failed:
            head, fail = shown_failure(failed, failures, failing)
            if fail.example.label == "random" and shrinkable(head) and shrink_failure:
                budget = CheckBudget(limits, t_run)
                shrunk = shrink(plan, head, fail, source, run, kwargs, budget)
                if budget.spent:
                    report.notes.append(f"the check's {budget.wall_s:g} s time limit was reached while the "
                                        "counterexample was being made smaller: it is shown as far as it got")
                if shrunk is not fail:
                    shrunk.example = replace(shrunk.example, label="shrunk from a random case")
                fail = shrunk
            reference = plan.reference_of(fail.example) if fail.example.invalid is None else None
            report.counterexample = counterexample(spec, framework, head, fail, reference)
            for cr, c in zip(report.checks, checks):
                if not cr.passed:
                    cr.message = message(spec, c, min(failures[c.id], key=lambda f: f.example.size()))
        report.passed = not failed and report.error is None
        return report

    # ---- the spare-fork policy -----------------------------------------------------------------
    def prepare(self, drill: str, framework: str, seed: int = 0) -> None:
        """Fork ahead the sandbox child(ren) a check of `drill` in `framework` will use (the app calls it
        when a drill opens), so that the first check there is as fast as the next ones. Test-writing and
        read-the-run drills and unknown frameworks are left alone."""
        d = get_drill(drill)
        if d.is_test or d.is_run or framework not in d.frameworks:
            return
        self._next = _NextRun(self.plan(d.base or d.id, framework, seed), None)
        self.keep_warm()

    def keep_warm(self) -> None:
        """Fork, ahead of the next check, the sandbox child that checking the same drill again will use
        (the answer's first run of its examples): that check then pays for none of fork, confinement and
        forgetting, and runs its examples in up to `SPARE_PARTS` children at once. For a long-lived checker
        between checks (the worker behind the app and `watch`); a check of another drill forks afresh, as
        without it."""
        if self._next is None or self._runner is not None:
            return
        plan, measured = self._next.plan, self._next.plan.measured
        weights = list(measured.call_ms) if len(measured.call_ms) == len(plan.distinct) else None
        fork_spare(plan.spec.function, plan.distinct, limits=self._next.limits or Limits(),
                   parts=parts_for(measured), weights=weights)


def _per_example(result, owners):
    """The run of the distinct calls as a run of every example's call: each result given to every
    example it stands for, cut where a run of all the calls would have stopped (before the example of
    the call that failed), and the failing call named by its first example."""
    err = result.error
    stop = owners[err.call_index][0] if err is not None and err.call_index is not None \
        and 0 <= err.call_index < len(owners) else None
    results = sorted((replace(r, index=i) for r in result.results for i in owners[r.index]
                      if stop is None or i < stop), key=lambda r: r.index)
    if stop is not None:
        err = replace(err, call_index=stop)
    return replace(result, results=results, error=err)
