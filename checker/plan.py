"""What checking one drill in one framework with one seed needs, computed once and kept by the `Checker`
(`checker.engine`): the examples (edge cases, then drawn ones), the sandbox call of each with repeated
calls made once, the reference's result on each, what judging each example needs, the reference on the
shrinking candidates met so far, and how long the last check's run took (for the spare-fork policy).

Nothing here runs an answer, and nothing here is handed to the sandbox but the calls: the child gets
its own copy of them (a fork), and the catalogue copies what it runs, so nothing mutates them here.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np
import torch

from checker.evaluation import Planned, all_checks, planned
from checker.inputs import examples_for, expected_for
from checker.sandbox.model import Call
from checker.specs import DrillSpec, Example, Expected
from checker.specs.base import example_key

#: How many shrinking candidates' reference results a plan keeps (a long watch session meets many).
MAX_REFERENCES = 4096


@dataclass
class Measured:
    """How the last check of a plan ran: the answer's own time in the sandbox, the time spent judging its
    results here, and each call's time (the spare-fork policy weighs slices by them)."""
    answer_ms: float = 0.0
    judging_ms: float = 0.0
    call_ms: tuple = ()


class DrillPlan:
    """One drill's examples, calls, reference results and judging plan for one framework and seed. The
    examples and calls are made at once; the reference's results the first time they are asked for (a
    drill opened in the app forks its sandbox child ahead from the calls alone)."""

    def __init__(self, spec: DrillSpec, framework: str, seed: int) -> None:
        self.spec, self.framework, self.seed = spec, framework, seed
        self.examples: tuple[Example, ...] = examples_for(spec, framework, seed)
        self.checks = all_checks(spec, framework)
        self.calls: list[Call] = [spec.to_call(ex, framework) for ex in self.examples]
        self.distinct, self.owners = distinct_calls(self.calls)
        self.measured = Measured()
        self._references: dict = {}

    def warm(self) -> "DrillPlan":
        """Compute the reference's results and the judging plan now, not at the first check (a long-lived
        checker warms up before its first check)."""
        self.planned  # noqa: B018 - computed and kept by the property
        return self

    @functools.cached_property
    def expected(self) -> tuple[Expected, ...]:
        """The reference's result on every example (same order)."""
        return expected_for(self.spec, self.framework, self.examples)

    @functools.cached_property
    def planned(self) -> tuple[Planned, ...]:
        """What judging each example needs (same order)."""
        return tuple(planned(self.spec, self.framework, self.checks, ex, exp)
                     for ex, exp in zip(self.examples, self.expected))

    def reference_of(self, ex: Example) -> Expected:
        """The reference on a shrinking candidate, computed once: the same failure shrinks through the same
        candidates every time the answer is checked again (watch mode, the app's Run key)."""
        key = example_key(ex)
        exp = self._references.get(key)
        if exp is None:
            if len(self._references) >= MAX_REFERENCES:
                self._references.clear()
            exp = self._references[key] = self.spec.reference(ex, self.framework)
        return exp


def distinct_calls(calls: list[Call]) -> tuple[list[Call], tuple[tuple[int, ...], ...]]:
    """The calls with each repeated one made once (drawn examples repeat edge cases and each other):
    (distinct calls, for each the indices of the calls it stands for, in order)."""
    distinct: list[Call] = []
    owners: list[list[int]] = []
    seen: dict = {}
    for i, call in enumerate(calls):
        key = call_key(call)
        j = seen.get(key) if key is not None else None
        if j is None:
            if key is not None:
                seen[key] = len(distinct)
            distinct.append(call)
            owners.append([i])
        else:
            owners[j].append(i)
    return distinct, tuple(tuple(o) for o in owners)


def call_key(call: Call):
    """What makes two calls the same call (inputs by dtype, shape and bytes; scalars by type and repr),
    or None for a call holding anything else (never merged)."""

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
