"""One check of a candidate's answer, end to end: run it in the sandbox on the drill's examples, compare
with the reference core check by check, shrink the first failure to the smallest counterexample, and
name the catalogued mistakes whose behaviour it matches.

Reference results are computed here, in the checker's own process; only the candidate's function runs
in the sandbox, so nothing the candidate's code does to numpy or torch can change the verdict.
"""
from __future__ import annotations

import os
import time
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Callable

import numpy as np

from checker.budget import CheckBudget
from checker.report import CheckResult, Counterexample, Diagnosis, Report, Unexplained, fmt
from checker.specs import Check, DrillSpec, Example, Expected, spec_for
from checker.specs.base import Mismatch, OutputProblem, first_mismatch

OUTPUT_CHECKS = (
    ("output-type", "returns the right type"),
    ("output-shape", "returns the right shape"),
    ("output-nonfinite", "returns finite values where the answer is finite"),
)
SHRINK_ROUNDS = 4


@dataclass
class Failure:
    """One example on which one check failed."""
    index: int
    example: Example
    mismatch: Mismatch | None
    detail: str = ""
    got: dict | None = None  # the answer's outputs (and "grad:<input>" gradients) on this example


def _runner():
    from checker.sandbox import run_candidate

    return run_candidate


def check(source: str, drill: str | None = None, framework: str | None = None, seed: int = 0,
          limits=None, runner: Callable | None = None, filename: str = "answer.py", shrink_failure: bool = True) -> Report:
    """Check `source` against a drill (inferred from the code when not given). Raises DetectError when the
    drill or framework cannot be inferred (a usage problem, not a wrong answer). `shrink_failure=False`
    reports the smallest failing example as found, without re-running the answer on simpler ones (the
    verdict and the names are the same; the diagnosis bench uses it)."""
    from checker.detect import detect
    from checker.inputs import examples_for, expected_for
    from drills import get_drill

    global _last_run
    t0 = time.perf_counter()
    drill_id, framework = detect(source, drill, framework)
    d = get_drill(drill_id)
    if d.is_run:  # an answer sheet, read as text: nothing of it runs
        from checker.runs.grade import grade as grade_sheet

        return grade_sheet(source, d)
    run = runner or _runner()
    if runner is None:
        from checker.sandbox import prepare_parent

        prepare_parent()  # the zygote is up before any clock of the check starts
    if d.is_test:  # the candidate wrote tests: grade them against right and buggy implementations
        from checker.testwriting import grade

        return grade(source, drill_id, framework, runner=run, limits=limits, filename=filename)
    spec = spec_for(d.base or d.id)
    examples = list(examples_for(spec.drill_id, framework, seed))
    calls = _calls_for(spec.drill_id, framework, seed)
    distinct, owners = _distinct_calls_for(spec.drill_id, framework, seed)
    kwargs = {"filename": filename}
    if limits is not None:
        kwargs["limits"] = limits
    expected = dict(enumerate(expected_for(spec.drill_id, framework, seed)))
    ev = Evaluation(spec, framework, examples, expected, plan=_plan_for(spec.drill_id, framework, seed))

    def judge(r) -> None:
        for i in owners[r.index]:
            ev.add(replace(r, index=i))

    t_run = time.perf_counter()  # the check's time limit runs from its first run
    if runner is None:  # the sandbox: results are judged as they arrive, while the answer runs on
        result = run(source, spec.function, distinct, on_result=judge, **kwargs)
        _last_run = (spec.function, distinct, kwargs.get("limits"), result.timings.get("calls_total_ms", 0.0),
                     ev.busy_ms, result.call_ms, (spec.drill_id, framework))
        _measured[(spec.drill_id, framework, seed)] = _last_run[3:6]
    else:
        result = run(source, spec.function, distinct, **kwargs)
    result = _per_example(result, owners)
    report = Report(drill=drill_id, framework=framework, passed=False, notes=list(result.notes),
                    stdout=result.stdout)

    signature_problem = _signature_problem(spec, result.signature)
    err = result.error
    if err is not None and (err.kind in ("syntax", "missing-function") or err.call_index is None):
        report.error = _error(err, examples)  # nothing ran: no check to report on
        report.elapsed_ms = (time.perf_counter() - t0) * 1e3
        return report
    if signature_problem:
        report.error = {"kind": "signature", "message": signature_problem, "line": None}
        report.elapsed_ms = (time.perf_counter() - t0) * 1e3
        return report

    results = {r.index: r for r in result.results}
    for i in sorted(results):
        ev.add(results[i])  # those not judged yet (a runner that does not stream)
    checks, failures = ev.finish(kept=results.keys())
    if result.error is not None:
        report.error = _error(result.error, examples)

    report.checks = [CheckResult(c.id, c.title, not failures.get(c.id), "") for c in checks]
    failed = [c for c in checks if failures.get(c.id)]
    failing: dict = {}
    if failed or report.error is not None:  # a right answer has nothing to diagnose
        passed = {c.id for c in checks if not failures.get(c.id)}
        report.diagnoses, report.unexplained, failing = _diagnoses(spec, framework, examples, calls, results,
                                                                   expected, failures, passed, ev.plan)
    if failed:
        head, fail = _shown_failure(failed, failures, failing)
        shrinkable = head.custom is None and head.relation is None and (head.id not in dict(OUTPUT_CHECKS) or head.id == "output-nonfinite")
        if fail.example.label == "random" and shrinkable and shrink_failure:
            budget = CheckBudget(limits, t_run)
            shrunk = shrink(spec, framework, head, fail, source, run, kwargs, budget)
            if budget.spent:
                report.notes.append(f"the check's {budget.wall_s:g} s time limit was reached while the "
                                    "counterexample was being made smaller: it is shown as far as it got")
            if shrunk is not fail:
                shrunk.example = replace(shrunk.example, label="shrunk from a random case")
            fail = shrunk
        report.counterexample = _counterexample(spec, framework, head, fail)
        for cr, c in zip(report.checks, checks):
            if not cr.passed:
                cr.message = message(spec, c, min(failures[c.id], key=lambda f: f.example.size()))
    report.passed = not failed and report.error is None
    report.elapsed_ms = (time.perf_counter() - t0) * 1e3
    return report


_last_run = None  # (function, calls, limits, the answer's ms, judging ms, ms per call, (drill, framework)) of the
# latest check's first run
#: At most how many children a kept-warm check runs its examples in, side by side (each a slice of
#: them; the verdict is the one a single child gives). Two where there are two cores or more.
SPARE_PARTS = 2 if (os.cpu_count() or 1) >= 2 else 1


def _parts_for(answer_ms: float, judging_ms: float) -> int:
    """Slices for the next check of the same drill: two when the answer's own work (its calls, as
    last measured) outweighs judging their results here, which shares the cores with the children
    (on two cores, three busy processes only pay when the children's work dominates); else one."""
    return SPARE_PARTS if answer_ms > 2 * judging_ms + 20 else 1


_measured: dict = {}  # (drill, framework, seed) -> (the answer's ms, judging ms, ms per call) of its last check


def prepare(drill: str, framework: str, seed: int = 0) -> None:
    """Fork ahead the sandbox child(ren) a check of `drill` in `framework` will use (the app calls it
    when a drill opens), so that the first check there is as fast as the next ones. Test-writing and
    read-the-run drills and unknown frameworks are left alone."""
    from drills import get_drill

    global _last_run
    d = get_drill(drill)
    if d.is_test or d.is_run or framework not in d.frameworks:
        return
    spec = spec_for(d.base or d.id)
    distinct, _ = _distinct_calls_for(spec.drill_id, framework, seed)
    answer_ms, judging_ms, call_ms = _measured.get((spec.drill_id, framework, seed), (0.0, 0.0, []))
    _last_run = (spec.function, distinct, None, answer_ms, judging_ms, call_ms, (spec.drill_id, framework))
    keep_warm()


def keep_warm() -> None:
    """Fork, ahead of the next check, the sandbox child that checking the same drill again will use
    (the answer's first run of its examples): that check then pays for none of fork, confinement and
    forgetting, and runs its examples in up to `SPARE_PARTS` children at once. For a long-lived checker
    between checks (the worker behind the app and `watch`); a check of another drill forks afresh, as
    without it."""
    from checker.sandbox import Limits, fork_spare

    if _last_run is None:
        return
    function, calls, limits, answer_ms, judging_ms, call_ms, (drill_id, framework) = _last_run
    fork_spare(function, calls, limits=limits if limits is not None else Limits(),  # type: ignore[arg-type]
               parts=_parts_for(answer_ms, judging_ms), weights=call_ms if len(call_ms) == len(calls) else None)


# ---- evaluation ------------------------------------------------------------------------------------

@lru_cache(maxsize=64)
def _calls_for(drill_id: str, framework: str, seed: int) -> list:
    """The sandbox calls of a seed's examples, built once: the sandbox's child gets its own copy of them
    (a fork), and the catalogue copies its inputs, so nothing mutates them here."""
    from checker.inputs import examples_for

    spec = spec_for(drill_id)
    return [spec.to_call(ex, framework) for ex in examples_for(drill_id, framework, seed)]


@lru_cache(maxsize=64)
def _distinct_calls_for(drill_id: str, framework: str, seed: int) -> tuple[list, tuple]:
    """The seed's calls with each repeated one made once (drawn examples repeat edge cases and each
    other): (distinct calls, for each the indices of the examples it stands for, in order)."""
    distinct, owners, seen = [], [], {}
    for i, call in enumerate(_calls_for(drill_id, framework, seed)):
        key = _call_key(call)
        j = seen.get(key) if key is not None else None
        if j is None:
            if key is not None:
                seen[key] = len(distinct)
            distinct.append(call)
            owners.append([i])
        else:
            owners[j].append(i)
    return distinct, tuple(tuple(o) for o in owners)


def _call_key(call):
    """What makes two calls the same call (inputs by dtype, shape and bytes; scalars by type and repr),
    or None for a call holding anything else (never merged)."""
    import torch

    def key(v):
        if isinstance(v, torch.Tensor):
            return ("tensor", str(v.dtype), tuple(v.shape), v.detach().numpy().tobytes())
        if isinstance(v, np.ndarray):
            return ("array", v.dtype.str, v.shape, v.tobytes())
        if v is None or type(v) in (bool, int, float, str):
            return ("scalar", type(v).__name__, repr(v))
        if isinstance(v, (tuple, list)):
            return (type(v).__name__, tuple(key(x) for x in v))
        if isinstance(v, dict):
            return ("dict", tuple((k, key(x)) for k, x in sorted(v.items())))
        raise TypeError

    try:
        return (key(call.args), key(call.kwargs), call.grad_of, tuple(call.grad_wrt), call.expect_error)
    except TypeError:
        return None


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


@dataclass
class _Planned:
    """What evaluating one example needs besides the answer's result, computed once per seed: the checks
    that apply, the kinks, the reference's fields (outputs, "grad:" and "nograd:")."""
    checks: list
    kinks: dict
    exp_all: dict


@lru_cache(maxsize=64)
def _plan_for(drill_id: str, framework: str, seed: int) -> tuple:
    from checker.inputs import examples_for, expected_for

    spec = spec_for(drill_id)
    checks = all_checks(spec, framework)
    return tuple(_planned(spec, framework, checks, ex, exp)
                 for ex, exp in zip(examples_for(drill_id, framework, seed), expected_for(drill_id, framework, seed)))


def _planned(spec, framework, checks, ex, exp) -> _Planned:
    if ex.invalid is not None:
        return _Planned([], {}, {})
    kinks = spec.kinks(ex) if framework == "torch" else {}
    exp_all = dict(exp.outputs)
    for name, g in exp.grads.items():
        exp_all[f"grad:{name}"] = g
        exp_all[f"nograd:{name}"] = None
    applicable = [c for c in checks if not (c.id in dict(OUTPUT_CHECKS) or c.id == "input-contract"
                                            or c.relation is not None) and c.applies(ex)]
    return _Planned(applicable, kinks, exp_all)


def all_checks(spec: DrillSpec, framework: str) -> list[Check]:
    out = [Check(cid, title, "{detail}", custom=lambda ex, got: None) for cid, title in OUTPUT_CHECKS]
    return out + [c for c in spec.checks() if framework in c.frameworks]


def evaluate(spec: DrillSpec, framework: str, examples, results, expected, plan=None) -> tuple[list[Check], dict]:
    """Every check over every example that ran; returns (checks that apply, failures by check id).

    Gradients are not compared where the loss has a kink or a tie (`spec.kinks`): every subgradient is
    right there. Relation (metamorphic) checks compare the answer with itself across the examples of one
    relation, once all of them ran. `plan`: what `_plan_for` precomputed for these examples (else
    computed here)."""
    ev = Evaluation(spec, framework, examples, expected, plan)
    for i in sorted(results):
        ev.add(results[i])
    return ev.finish()


class Evaluation:
    """`evaluate`, one result at a time: `add` judges each example's result as it arrives, in any order
    (while the sandbox still runs other calls); `finish` gathers the judgements of the results that
    count, runs the relation checks, and returns what `evaluate` returns."""

    def __init__(self, spec: DrillSpec, framework: str, examples, expected, plan=None) -> None:
        self.spec, self.framework, self.examples, self.expected, self.plan = spec, framework, examples, expected, plan
        self.checks = all_checks(spec, framework)
        # per judged example index: (the check ids that applied, [(check id, Failure)], the relation
        # entry ((name, role), fields) or None)
        self.judged: dict[int, tuple[set, list, tuple | None]] = {}
        self.busy_ms = 0.0  # time spent in `add`

    def add(self, r) -> None:
        """Judge one call's result (a `CallResult`); a result already judged is ignored."""
        t0 = time.perf_counter()
        try:
            self._add(r)
        finally:
            self.busy_ms += (time.perf_counter() - t0) * 1e3

    def _add(self, r) -> None:
        i = r.index
        if i in self.judged or not 0 <= i < len(self.examples):
            return
        applied: set[str] = set()
        found: list[tuple[str, Failure]] = []
        self.judged[i] = (applied, found, None)
        spec, framework, checks = self.spec, self.framework, self.checks

        def record(check_id: str, failure: Failure) -> None:
            found.append((check_id, failure))

        ex = self.examples[i]
        exp = self.expected[i]
        if ex.invalid is not None:
            for c in checks:
                if c.id == "input-contract":
                    applied.add(c.id)
                    if r.ok:
                        record(c.id, Failure(i, ex, None, f"{ex.invalid} must raise "
                                                                               f"ValueError, but yours accepted it"))
                    elif r.error is not None and r.error.type != "ValueError":
                        record(c.id, Failure(
                            i, ex, None, f"{ex.invalid} must raise ValueError, but yours raised {r.error.type}"))
            return
        applied.update(("output-type", "output-shape", "output-nonfinite"))
        try:
            got = spec.extract(r.value, ex, framework)
        except OutputProblem as problem:
            record(problem.mistake, Failure(i, ex, None, problem.message))
            return
        nonfinite = _nonfinite(got, exp)
        if nonfinite:
            record("output-nonfinite", Failure(i, ex, nonfinite, "", got))
        planned = self.plan[i] if self.plan is not None else _planned(spec, framework, checks, ex, exp)
        kinks = planned.kinks
        got_all = dict(got)
        for name, g in (r.grads or {}).items():
            e = exp.grads.get(name)
            if g is not None and e is not None and name in kinks and np.shape(g) == np.shape(e):
                g = np.where(kinks[name], e, g)  # off the kinks only
            got_all[f"grad:{name}"] = g
            got_all[f"nograd:{name}"] = None if g is None or not np.any(g) else g
        exp_all = planned.exp_all
        if ex.relation is not None:
            self.judged[i] = (applied, found, (ex.relation, got_all))
        field_mismatch: dict[str, Mismatch | None] = {}  # each output compared once, whatever the checks
        for c in planned.checks:
            applied.add(c.id)
            if c.custom is not None:
                detail = c.custom(ex, got)
                if detail:
                    record(c.id, Failure(i, ex, None, detail, got_all))
                continue
            mm = None
            for f in c.fields:
                if f not in field_mismatch:
                    field_mismatch[f] = _grad_aware_mismatch(exp_all, got_all, (f,), r.grad_error)
                mm = field_mismatch[f]
                if mm is not None:
                    break
            if mm is not None:
                record(c.id, Failure(i, ex, mm, "", got_all))

    def finish(self, kept=None) -> tuple[list[Check], dict]:
        """The checks that apply and the failures by check id, over the judged results whose index is
        in `kept` (default: all of them), in example order."""
        failures: dict[str, list[Failure]] = {}
        applied: set[str] = set()
        by_relation: dict[str, dict[str, tuple[int, Example, dict]]] = {}
        for i in sorted(self.judged):
            if kept is not None and i not in kept:
                continue
            ids, found, relation = self.judged[i]
            applied |= ids
            for check_id, failure in found:
                failures.setdefault(check_id, []).append(failure)
            if relation is not None:
                (name, role), got_all = relation
                by_relation.setdefault(name, {})[role] = (i, self.examples[i], got_all)
        for c in self.checks:
            if c.relation is None or c.relation not in by_relation:
                continue
            roles = by_relation[c.relation]
            applied.add(c.id)
            detail = c.compare({role: got for role, (_, _, got) in roles.items()}, where=self.spec.where)
            if detail:
                i, ex, got = _shown_role(roles)
                failures.setdefault(c.id, []).append(Failure(i, ex, None, detail, got))
        return [c for c in self.checks if c.id in applied], failures


#: Roles of a relation that hold the inputs as given (the others change them: NaN in the padding, a shift)
BASE_ROLES = ("as-given", "base", "unshifted", "explicit", "all-true")


def _shown_role(roles: dict) -> tuple:
    """The example a failed relation check shows: a role whose inputs were changed and whose results differ
    from the inputs as given (the NaN-padding case, not the passing padding-as-given one)."""
    from checker.specs.base import same_outputs

    base = next((roles[r] for r in BASE_ROLES if r in roles), next(iter(roles.values())))
    for role, entry in roles.items():
        if role not in BASE_ROLES and same_outputs(entry[2], base[2]) is not None:
            return entry
    return next(iter(roles.values()))


def _grad_aware_mismatch(exp_all, got_all, fields, grad_error) -> Mismatch | None:
    for f in fields:
        if f.startswith("grad:") and got_all.get(f) is None and exp_all.get(f) is not None and np.any(exp_all[f]):
            return Mismatch(f, (), exp_all[f], grad_error or "no gradient")
    return first_mismatch(exp_all, got_all, fields)


def _nonfinite(got: dict, exp: Expected) -> Mismatch | None:
    for k, g in got.items():
        e = exp.outputs.get(k)
        if e is None:
            continue
        finite = np.isfinite(np.asarray(g, dtype=np.float64))
        if finite.all():  # the common case: nothing non-finite to explain
            continue
        bad = ~finite & np.isfinite(np.asarray(e, dtype=np.float64))
        if bad.any():
            idx = tuple(int(i) for i in np.argwhere(bad)[0]) if np.ndim(bad) else ()
            return Mismatch(k, idx, np.asarray(e)[idx] if idx else e, np.asarray(g)[idx] if idx else g)
    return None


# ---- shrinking ------------------------------------------------------------------------------------

def shrink(spec: DrillSpec, framework: str, check: Check, fail: Failure, source, run, kwargs,
           budget: CheckBudget | None = None) -> Failure:
    """Greedy shrinking of a failing random example: try the spec's simpler variants, keep the smallest
    that still fails the same check, repeat a few rounds, within what is left of the check's `budget`.

    Two rounds share one sandbox run: with a round's candidates go the next round's candidates of each
    of them, and only those of the one the greedy step picks are judged. The outcome is the one-run-per-
    round outcome; where the run ended before every call was reported, the next round runs on its own."""
    best = fail
    rounds = 0
    while rounds < SHRINK_ROUNDS:
        first = _simpler(spec, check, best.example)
        if not first:
            break
        limits = budget.next_run() if budget is not None else kwargs.get("limits")
        if budget is not None and limits is None:
            break
        second = [_simpler(spec, check, c) for c in first] if rounds + 1 < SHRINK_ROUNDS else [[] for _ in first]
        batch = first + [c for group in second for c in group]
        run_kwargs = dict(kwargs, limits=limits) if limits is not None else kwargs
        result = run(source, spec.function, [spec.to_call(c, framework) for c in batch], **run_kwargs)
        if budget is not None:
            budget.saw(result)
            if budget.spent:
                break
        results = {r.index: r for r in result.results}
        rounds += 1
        picked = _smallest_failing(spec, framework, check, first, 0, results)
        if picked is None:
            break
        best = picked
        k = next((j for j, c in enumerate(first) if c is best.example), None)
        if k is None or not second[k] or rounds >= SHRINK_ROUNDS:
            continue
        start = len(first) + sum(len(g) for g in second[:k])
        if all(i in results for i in range(start, start + len(second[k]))):
            picked = _smallest_failing(spec, framework, check, second[k], start, results)
            rounds += 1
            if picked is None:
                break
            best = picked
    return best


def _simpler(spec: DrillSpec, check: Check, ex: Example) -> list[Example]:
    return [c for c in spec.shrink(ex) if check.applies(c) and c.size() < ex.size()]


def _smallest_failing(spec, framework, check, candidates, start, results) -> Failure | None:
    """The smallest of `candidates` (run as calls `start`, `start + 1`, ...) that still fails `check`."""
    mine = {i - start: r for i, r in results.items() if start <= i < start + len(candidates)}
    mine = {i: replace(r, index=i) for i, r in mine.items()}
    expected = {i: _reference_of(spec, framework, c) for i, c in enumerate(candidates)}
    _, failures = evaluate(spec, framework, candidates, mine, expected)
    still = failures.get(check.id, [])
    return min(still, key=lambda f: f.example.size()) if still else None


_REFERENCES: dict = {}  # (drill, framework, example content) -> Expected, for the shrinking candidates


def _reference_of(spec: DrillSpec, framework: str, ex: Example) -> Expected:
    """The reference on a shrinking candidate, computed once: the same failure shrinks through the same
    candidates every time the answer is checked again (watch mode, the app's Run key)."""
    from checker.catalogue import example_key

    key = (spec.drill_id, framework, example_key(ex))
    exp = _REFERENCES.get(key)
    if exp is None:
        if len(_REFERENCES) > 4096:
            _REFERENCES.clear()
        exp = _REFERENCES[key] = spec.reference(ex, framework)
    return exp


# ---- wording --------------------------------------------------------------------------------------

def message(spec: DrillSpec, check: Check, fail: Failure) -> str:
    nonfinite = check.id == "output-nonfinite"  # an output check, but one that names the value and the place
    if not nonfinite and (check.id in dict(OUTPUT_CHECKS) or check.custom is not None
                          or check.id == "input-contract" or check.relation is not None):
        text = check.message.format(detail=fail.detail) if check.id not in dict(OUTPUT_CHECKS) else fail.detail
        return text
    mm = fail.mismatch
    where = spec.where(mm) if mm else ""
    values = {"at": f" at {where}" if where else "", "where": where, "detail": fail.detail,
              "expected": fmt(mm.expected) if mm else "", "got": fmt(mm.got) if mm else "",
              "field": _field_name(mm.field) if mm else "", "label": _shown_label(fail.example.label),
              "eps": fail.example.hyper.get("clip_eps", fail.example.hyper.get("clip_range", 0.2)),
              **{k: v for k, v in fail.example.hyper.items()}}
    if nonfinite:
        label = _shown_label(fail.example.label)
        return (f"On {label} your {values['field']}{values['at']} is {values['got']} where the "
                f"reference gives {values['expected']}: a value overflowed, or was divided by zero, where the "
                "reference's computation stays finite.")
    try:
        return check.message.format(**values)
    except (KeyError, IndexError):
        return check.message


def _shown_label(label: str) -> str:
    """An example's label as a sentence reads it: "a random case", "the worked example", not "edge: ..."."""
    return "a random case" if label == "random" else label.removeprefix("edge: ")


def _field_name(field: str) -> str:
    if field.startswith("grad:"):
        return f"gradient w.r.t. {field[5:]}"
    if field.startswith("nograd:"):
        return f"gradient reaching {field[7:]}"
    return field


def _counterexample(spec, framework, check: Check, fail: Failure) -> Counterexample:
    """Inputs, the reference's outputs and the answer's outputs on the failing example (whole arrays);
    for a gradient check, the gradient in question."""
    ex = fail.example
    inputs = {**ex.arrays, **ex.hyper}
    exp = spec.reference(ex, framework) if ex.invalid is None else Expected({})
    mm = fail.mismatch
    if mm is not None and mm.field.startswith(("grad:", "nograd:")):
        name = mm.field.split(":", 1)[1]
        label = _field_name(mm.field)
        want = exp.grads.get(name)
        got_grad = (fail.got or {}).get(f"grad:{name}")
        expected = {label: want if want is not None else "no gradient"}
        got = {label: got_grad if got_grad is not None else (mm.got if isinstance(mm.got, str) else "no gradient")}
    else:
        fields = [f for f in (check.fields or spec.output_fields) if f in exp.outputs] or list(exp.outputs)
        shown = spec.as_shown(exp.outputs, ex)
        expected = {f: shown[f] for f in fields}
        got = {}
        if fail.got is not None:
            shown = spec.as_shown(fail.got, ex)
            got = {f: shown.get(f) for f in fields}
        if fail.detail and fail.got is None:
            got = {"result": fail.detail}
    return Counterexample(check.id, ex.label, inputs, expected, got, spec.where(mm) if mm else "")


def _shown_failure(failed: list, failures: dict, failing: dict) -> tuple:
    """The check and the example the counterexample shows: a failure of the first named mistake itself
    (the smallest example on which the answer and the mistake both fail a check; a named property before
    the catch-all comparison on random inputs, a value check before a relation, both before the input
    contract), so the case shown is the one the diagnosis explains; else
    the first failed check's smallest failure."""
    for by_check in failing.values():
        mine = [(c, f) for c in failed for f in failures[c.id] if f.index in by_check.get(c.id, ())]
        if mine:
            return min(mine, key=lambda cf: (cf[0].id == "input-contract", cf[0].relation is not None,
                                             cf[0].id == "matches-reference", cf[1].example.size()))
        break
    head = failed[0]
    return head, min(failures[head.id], key=lambda f: f.example.size())


def _nonfinite_explanation(spec, fail) -> tuple[str, str | None]:
    """What the non-finite result itself says about its cause, from the input it came from: NaN or inf in
    the padding, inputs whose exp overflows or underflows, or neither (then no guess)."""
    ex = fail.example
    head = "Your output holds NaN or inf on an input where the correct answer is finite."
    from checker.misconceptions import padding_poisoned

    if spec.roles.get("mask") and padding_poisoned(spec, ex):
        return (f"{head} On this input padded slots hold NaN, inf or huge values: they reached the result, "
                "which a mask applied by multiplying does not stop (NaN * 0 and inf * 0 are NaN). Keep the padded "
                "entries out of every operation: select with where or boolean indexing.",
                "tok-padding-select-not-multiply")
    finite = [a[np.isfinite(a)] for a in ex.arrays.values() if a.dtype.kind == "f"]
    if any(x.size and np.abs(x).max() >= 300 for x in finite):
        card = "ppo-ratio-log-space" if spec.roles.get("old_logp") else None
        return (f"{head} Some inputs here are large in magnitude (hundreds), where exp overflows to inf or "
                "underflows to 0 and a division or a log of the result is no longer finite. Combine the "
                "terms before exponentiating, or use a log-space form."), card
    return (f"{head} Find the operation that first gives NaN or inf on the input shown (a division by zero, a "
            "log of 0)."), None


def _diagnoses(spec, framework, examples, calls, results, expected, failures, passed=None, plan=None):
    """(named mistakes, parts nothing explains, for each named id the checks its variant fails). A name
    lists the parts it explains when it does not explain everything that differs."""
    from checker import misconceptions
    from checker.catalogue import diagnose
    from drills import all_mistakes, get_drill, shared_misconceptions

    mistakes = all_mistakes()
    shared = shared_misconceptions()
    roles = spec.roles
    out: list[Diagnosis] = []
    seen: dict[str, Diagnosis] = {}

    def add(mid: str, explains: list[str] | None = None, alternative_to: str | None = None):
        if mid in seen:
            for a in explains or []:
                if a not in seen[mid].explains:
                    seen[mid].explains.append(a)
            return
        m = mistakes.get(mid)
        text, card = (m.explanation, m.card) if m else ("", None)
        if mid in shared:  # a shared misconception, in this drill's words
            text = misconceptions.explanation(text, roles)
            card = misconceptions.card(mid, card, roles)
        if mid == "output-nonfinite" and failures.get(mid):
            text, card = _nonfinite_explanation(spec, min(failures[mid], key=lambda f: f.example.size()))
        if mid == "input-contract":
            card = next((c for c in get_drill(spec.drill_id).cards if "contract" in c), None)
        d = Diagnosis(mid, m.title if m else mid, text, card, list(explains or []), alternative_to)
        seen[mid] = d
        out.append(d)

    found = diagnose(spec, framework, examples, calls, results, expected, passed, plan)
    for ids, axes in found.names:
        alt = found.alternative_of.get(ids)
        for k, mid in enumerate(ids):
            add(mid, axes, alt[k] if alt and len(alt) == len(ids) and alt[k] != mid else None)
    unexplained = [Unexplained(axis, differs) for axis, differs in found.unexplained]
    explained = bool(out)  # a catalogued mistake already explains any odd output it produces
    for mid in ("output-type", "output-shape", "output-nonfinite"):
        if failures.get(mid) and not explained:
            add(mid)
    if out and not explained:
        unexplained = []  # the output problem is the diagnosis
    if failures.get("input-contract"):
        add("input-contract")
        accepted = "; ".join(f.detail for f in failures["input-contract"])
        out[-1] = Diagnosis(out[-1].id, out[-1].title, f"{out[-1].explanation} Here: {accepted}.", out[-1].card)
    failing = {ids[0]: by for ids, by in found.failing.items() if ids and ids[0] in seen}
    return out, unexplained, failing


def _signature_problem(spec: DrillSpec, signature) -> str | None:
    if signature is None:
        return None
    names = [p["name"] for p in signature]
    want = [*spec.positional, *spec.hyper_defaults]
    shown = ", ".join(spec.positional) + "".join(f", {k}={v!r}" for k, v in spec.hyper_defaults.items())
    theirs = ", ".join(names)
    kinds = {p["name"]: p for p in signature}
    accepts_kwargs = any(p["kind"] == "VAR_KEYWORD" for p in signature)
    positional_ok = [p for p in signature if p["kind"] in ("POSITIONAL_ONLY", "POSITIONAL_OR_KEYWORD")]
    star_args = any(p["kind"] == "VAR_POSITIONAL" for p in signature)
    if len(positional_ok) < len(spec.positional) and not star_args:
        return f"{spec.function} must take ({shown}); yours takes ({theirs})"
    # The checker calls the function with the settings by name and follows the inputs by their names
    # (a gradient is asked for by the prompt's name): say so plainly, since `(r, v, d)` reads to a person
    # as the same function.
    names_note = (f". The checker passes {', '.join(spec.hyper_defaults) or 'the settings'} by name and "
                  f"follows the inputs by the prompt's names, so name every parameter as the prompt does")
    for k in spec.hyper_defaults:
        if k not in kinds and not accepts_kwargs:
            return (f"{spec.function} must take ({shown}); yours has no parameter {k!r} (it takes "
                    f"({theirs})){names_note}")
    extra = [p["name"] for p in signature if p["name"] not in want and not p["has_default"]
             and p["kind"] not in ("VAR_POSITIONAL", "VAR_KEYWORD")]
    if extra and len(positional_ok) > len(spec.positional):
        renamed = [n for n in spec.positional if n not in kinds]
        if renamed:
            return (f"{spec.function} must take ({shown}); yours takes ({theirs}), with no parameter "
                    f"{' or '.join(repr(n) for n in renamed)}{names_note}")
        return f"{spec.function} must take ({shown}); yours also requires {', '.join(extra)}"
    return None


def _error(err, examples) -> dict:
    if err.exc_type == "NotImplementedError":
        return {"kind": err.kind, "line": err.line, "detail": "",
                "message": "the function is not written yet (it still raises NotImplementedError): replace that "
                           "line with your answer"}
    msg = err.message
    if err.call_index is not None and err.call_index < len(examples):
        ex = examples[err.call_index]
        msg = f"{msg} (while running on {ex.label.removeprefix('edge: ')}: " + ", ".join(
            f"{k}={fmt(v)}" for k, v in list(ex.arrays.items()) + list(ex.hyper.items())) + ")"
    return {"kind": err.kind, "message": msg, "line": err.line, "detail": err.detail}
