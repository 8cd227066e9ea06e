"""What a `Checker` keeps: one plan per drill, framework and seed (repeated calls made once, the reference's
results computed when first asked for, shrinking references kept), one catalogue per drill and framework,
and the spare-fork policy, which only a sandboxed checker applies."""
from __future__ import annotations

import numpy as np

from checker.engine import SPARE_PARTS, Checker, parts_for
from checker.plan import DrillPlan, Measured, call_key, distinct_calls
from checker.sandbox.model import Call
from checker.specs import spec_for
from checker.specs.base import Example


def test_repeated_calls_run_once_and_stand_for_every_example_they_repeat():
    a, b = Call((np.array([1.0, 2.0]),), {"gamma": 0.9}), Call((np.array([1.0, 3.0]),), {"gamma": 0.9})
    same_as_a = Call((np.array([1.0, 2.0]),), {"gamma": 0.9})
    distinct, owners = distinct_calls([a, b, same_as_a, b])
    assert distinct == [a, b] and owners == ((0, 2), (1, 3))
    assert call_key(a) == call_key(same_as_a) != call_key(Call((np.array([1.0, 2.0]),), {"gamma": 0.5}))


def test_a_call_holding_an_unknown_object_is_never_merged():
    odd = Call((object(),))
    assert call_key(odd) is None
    distinct, owners = distinct_calls([odd, odd])
    assert len(distinct) == 2 and owners == ((0,), (1,))


def test_the_reference_is_computed_when_first_needed_and_kept():
    plan = DrillPlan(spec_for("gae"), "numpy", 0)
    assert "expected" not in plan.__dict__ and "planned" not in plan.__dict__  # the calls alone fork a spare
    assert len(plan.distinct) <= len(plan.calls) == len(plan.examples)
    assert plan.warm() is plan and len(plan.expected) == len(plan.planned) == len(plan.examples)
    ex = Example({"rewards": np.array([1.0]), "values": np.array([0.5, 0.0]), "dones": np.array([1.0])})
    first = plan.reference_of(ex)
    assert plan.reference_of(Example(dict(ex.arrays))) is first  # by content, not identity
    assert np.allclose(first.outputs["advantages"], [0.5])


def test_a_checker_keeps_one_plan_and_one_catalogue_per_drill():
    checker = Checker(runner=lambda *a, **k: None)
    assert checker.plan("gae", "numpy") is checker.plan("gae", "numpy")
    assert checker.plan("gae", "numpy", 1) is not checker.plan("gae", "numpy")
    assert checker.catalogue("gae", "numpy") is checker.catalogue("gae", "numpy")
    assert checker.catalogue("gae", "torch") is not checker.catalogue("gae", "numpy")
    assert Checker().plan("gae", "numpy") is not checker.plan("gae", "numpy")  # nothing kept between checkers


def test_two_slices_only_when_the_answer_outweighs_judging():
    assert parts_for(Measured(answer_ms=500.0, judging_ms=10.0)) == SPARE_PARTS
    assert parts_for(Measured(answer_ms=30.0, judging_ms=10.0)) == 1
    assert parts_for(Measured()) == 1  # nothing measured yet


def test_a_checker_with_a_runner_of_its_own_forks_nothing_ahead(monkeypatch):
    import checker.engine as engine

    forked = []
    monkeypatch.setattr(engine, "fork_spare", lambda *a, **k: forked.append(a))
    checker = Checker(runner=lambda *a, **k: None)
    checker.prepare("gae", "numpy")
    checker.keep_warm()
    assert forked == []
