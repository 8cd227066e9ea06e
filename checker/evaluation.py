"""Judging an answer's results check by check: which checks apply to which example, where the answer's
outputs and gradients differ from the reference's, and the metamorphic (relation) checks that compare
the answer with itself across examples.

The engine judges the sandbox's results one at a time as they arrive (`Evaluation.add`), so judging
overlaps the answer's own run; the catalogue judges a catalogued mistake's results the same way
(`evaluate`), so a mistake "fails a check" by exactly the rule an answer does. Gradients are not
compared where the loss has a kink or a tie (`DrillSpec.kinks`): every subgradient is right there.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from checker.specs import Check, DrillSpec, Example, Expected
from checker.specs.base import CheckKind, Mismatch, OutputProblem, first_difference, first_where

#: The checks every drill has, on the structure of what the answer returns; the spec's own follow.
OUTPUT_CHECKS = (
    Check("output-type", "returns the right type", "{detail}", kind=CheckKind.OUTPUT),
    Check("output-shape", "returns the right shape", "{detail}", kind=CheckKind.OUTPUT),
    Check("output-nonfinite", "returns finite values where the answer is finite", "{detail}", kind=CheckKind.OUTPUT),
)
OUTPUT_IDS = tuple(c.id for c in OUTPUT_CHECKS)


@dataclass
class Failure:
    """One example on which one check failed."""
    index: int
    example: Example
    mismatch: Mismatch | None
    detail: str = ""
    got: dict | None = None  # the answer's outputs (and "grad:<input>" gradients) on this example


@dataclass
class Planned:
    """What judging one example needs besides the answer's result, computed once per example: the VALUE
    and PROPERTY checks that apply, the kinks, the reference's fields (outputs, "grad:" and "nograd:")."""
    checks: list
    kinks: dict
    exp_all: dict


def all_checks(spec: DrillSpec, framework: str) -> list[Check]:
    """The output checks, then the spec's checks that speak about `framework`."""
    return [*OUTPUT_CHECKS, *(c for c in spec.checks() if framework in c.frameworks)]


def planned(spec: DrillSpec, framework: str, checks: list[Check], ex: Example, exp: Expected) -> Planned:
    if ex.invalid is not None:
        return Planned([], {}, {})
    kinks = spec.kinks(ex) if framework == "torch" else {}
    exp_all = dict(exp.outputs)
    for name, g in exp.grads.items():
        exp_all[f"grad:{name}"] = g
        exp_all[f"nograd:{name}"] = None
    applicable = [c for c in checks if c.kind in (CheckKind.VALUE, CheckKind.PROPERTY) and c.applies(ex)]
    return Planned(applicable, kinks, exp_all)


def evaluate(spec: DrillSpec, framework: str, examples, results, expected, plan=None) -> tuple[list[Check], dict]:
    """Every check over every example that ran; returns (checks that apply, failures by check id).
    `plan`: each example's `Planned` (else computed here)."""
    ev = Evaluation(spec, framework, examples, expected, plan)
    for i in sorted(results):
        ev.add(results[i])
    return ev.finish()


class Evaluation:
    """`evaluate`, one result at a time: `add` judges each example's result as it arrives, in any order
    (while the sandbox still runs other calls); `finish` gathers the judgements of the results that
    count, runs the relation checks, and returns what `evaluate` returns."""

    def __init__(self, spec: DrillSpec, framework: str, examples, expected, plan=None,
                 checks: list[Check] | None = None) -> None:
        self.spec, self.framework, self.examples, self.expected, self.plan = spec, framework, examples, expected, plan
        self.checks = checks if checks is not None else all_checks(spec, framework)
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
        spec, framework = self.spec, self.framework
        ex = self.examples[i]
        exp = self.expected[i]
        if ex.invalid is not None:
            self._judge_contract(r, i, ex, applied, found)
            return
        applied.update(OUTPUT_IDS)
        try:
            got = spec.extract(r.value, ex, framework)
        except OutputProblem as problem:
            found.append((problem.mistake, Failure(i, ex, None, problem.message)))
            return
        nonfinite = _nonfinite(got, exp)
        if nonfinite:
            found.append(("output-nonfinite", Failure(i, ex, nonfinite, "", got)))
        plan = self.plan[i] if self.plan is not None else planned(spec, framework, self.checks, ex, exp)
        got_all = dict(got)
        for name, g in (r.grads or {}).items():
            e = exp.grads.get(name)
            if g is not None and e is not None and name in plan.kinks and np.shape(g) == np.shape(e):
                g = np.where(plan.kinks[name], e, g)  # off the kinks only
            got_all[f"grad:{name}"] = g
            got_all[f"nograd:{name}"] = None if g is None or not np.any(g) else g
        if ex.relation is not None:
            self.judged[i] = (applied, found, (ex.relation, got_all))
        field_mismatch: dict[str, Mismatch | None] = {}  # each output compared once, whatever the checks
        for c in plan.checks:
            applied.add(c.id)
            if c.kind is CheckKind.PROPERTY:
                detail = c.custom(ex, got)
                if detail:
                    found.append((c.id, Failure(i, ex, None, detail, got_all)))
                continue
            mm = None
            for f in c.fields:
                if f not in field_mismatch:
                    field_mismatch[f] = _grad_aware_mismatch(plan.exp_all, got_all, f, r.grad_error)
                mm = field_mismatch[f]
                if mm is not None:
                    break
            if mm is not None:
                found.append((c.id, Failure(i, ex, mm, "", got_all)))

    def _judge_contract(self, r, i: int, ex: Example, applied: set, found: list) -> None:
        """An input the contract rules out: the right result is ValueError."""
        for c in self.checks:
            if c.kind is not CheckKind.CONTRACT:
                continue
            applied.add(c.id)
            if r.ok:
                found.append((c.id, Failure(i, ex, None, f"{ex.invalid} must raise ValueError, but yours accepted it")))
            elif r.error is not None and r.error.type != "ValueError":
                found.append((c.id, Failure(i, ex, None, f"{ex.invalid} must raise ValueError, but yours raised "
                                                         f"{r.error.type}")))

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
            if c.kind is not CheckKind.RELATION or c.relation not in by_relation:
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
    base = next((roles[r] for r in BASE_ROLES if r in roles), next(iter(roles.values())))
    for role, entry in roles.items():
        if role not in BASE_ROLES and first_difference(base[2], entry[2]) is not None:
            return entry
    return next(iter(roles.values()))


def _grad_aware_mismatch(exp_all: dict, got_all: dict, f: str, grad_error) -> Mismatch | None:
    if f.startswith("grad:") and got_all.get(f) is None and exp_all.get(f) is not None and np.any(exp_all[f]):
        return Mismatch(f, (), exp_all[f], grad_error or "no gradient")
    return first_difference(exp_all, got_all, (f,))


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
            idx = first_where(bad) if np.ndim(bad) else ()
            return Mismatch(k, idx, np.asarray(e)[idx] if idx else e, np.asarray(g)[idx] if idx else g)
    return None
