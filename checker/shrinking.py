"""Making a failing random example smaller: the spec offers simpler variants (`DrillSpec.shrink`: single
rows, shorter prefixes, rounder numbers); the answer runs on them in the sandbox, and the smallest that
still fails the same check is kept, a few rounds over, within what is left of the check's time.

Two rounds share one sandbox run: with a round's candidates go the next round's candidates of each of
them, and only those of the one the greedy step picks are judged. The outcome is the one-run-per-round
outcome; where the run ended before every call was reported, the next round runs on its own.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Callable

from checker.budget import CheckBudget
from checker.evaluation import Failure, evaluate
from checker.plan import DrillPlan
from checker.specs import Check, Example

SHRINK_ROUNDS = 4


def shrink(plan: DrillPlan, check: Check, fail: Failure, source: str, run: Callable, kwargs: dict,
           budget: CheckBudget | None = None) -> Failure:
    """The smallest failure of `check` found from `fail` (itself when nothing simpler fails)."""
    spec, framework = plan.spec, plan.framework
    best = fail
    rounds = 0
    while rounds < SHRINK_ROUNDS:
        first = _simpler(plan, check, best.example)
        if not first:
            break
        limits = budget.next_run() if budget is not None else kwargs.get("limits")
        if budget is not None and limits is None:
            break
        second = [_simpler(plan, check, c) for c in first] if rounds + 1 < SHRINK_ROUNDS else [[] for _ in first]
        batch = first + [c for group in second for c in group]
        run_kwargs = dict(kwargs, limits=limits) if limits is not None else kwargs
        result = run(source, spec.function, [spec.to_call(c, framework) for c in batch], **run_kwargs)
        if budget is not None:
            budget.saw(result)
            if budget.spent:
                break
        results = {r.index: r for r in result.results}
        rounds += 1
        picked = _smallest_failing(plan, check, first, 0, results)
        if picked is None:
            break
        best = picked
        k = next((j for j, c in enumerate(first) if c is best.example), None)
        if k is None or not second[k] or rounds >= SHRINK_ROUNDS:
            continue
        start = len(first) + sum(len(g) for g in second[:k])
        if all(i in results for i in range(start, start + len(second[k]))):
            picked = _smallest_failing(plan, check, second[k], start, results)
            rounds += 1
            if picked is None:
                break
            best = picked
    return best


def _simpler(plan: DrillPlan, check: Check, ex: Example) -> list[Example]:
    return [c for c in plan.spec.shrink(ex) if check.applies(c) and c.size() < ex.size()]


def _smallest_failing(plan: DrillPlan, check: Check, candidates: list[Example], start: int,
                      results: dict) -> Failure | None:
    """The smallest of `candidates` (run as calls `start`, `start + 1`, ...) that still fails `check`."""
    mine = {i - start: replace(r, index=i - start) for i, r in results.items() if start <= i < start + len(candidates)}
    expected = {i: plan.reference_of(c) for i, c in enumerate(candidates)}
    _, failures = evaluate(plan.spec, plan.framework, candidates, mine, expected)
    still = failures.get(check.id, [])
    return min(still, key=lambda f: f.example.size()) if still else None
