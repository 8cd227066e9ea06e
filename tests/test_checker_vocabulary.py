"""The specs' shared vocabulary and the wording built on it: a check's kind follows from what it is given,
one walk finds where two results differ, the shrinking steps, a drill made of other drills' answers, a
message's settings read from the example or the spec's defaults, and the typed parts of a report."""
from __future__ import annotations

import numpy as np
import pytest

from checker.evaluation import OUTPUT_CHECKS, Failure
from checker.report import BugOutcome, Report, RunError, TestGrade, report_from_json
from checker.specs import spec_for
from checker.specs.base import (Check, CheckKind, Example, contract_check, cut_tokens, first_difference, rounded,
                                single_rows)
from checker.wording import message, shrinkable


def test_a_checks_kind_follows_from_what_it_is_given():
    assert Check("a", "t", "m", fields=("loss",)).kind is CheckKind.VALUE
    assert Check("b", "t", "m", custom=lambda ex, got: None).kind is CheckKind.PROPERTY
    assert Check("c", "t", "m", relation="defaults", compare=lambda got, where=None: None).kind is CheckKind.RELATION
    assert contract_check("bad inputs raise").kind is CheckKind.CONTRACT
    assert all(c.kind is CheckKind.OUTPUT for c in OUTPUT_CHECKS)
    with pytest.raises(ValueError, match="needs the `fields`"):
        Check("d", "t", "m")
    with pytest.raises(ValueError, match="needs `relation` and `compare`"):
        Check("e", "t", "m", relation="defaults")


def test_every_spec_check_has_what_its_kind_needs():
    from checker.specs import SPECS

    for spec in SPECS.values():
        for c in spec.checks():
            assert c.kind in (CheckKind.VALUE, CheckKind.PROPERTY, CheckKind.RELATION, CheckKind.CONTRACT), c.id
            assert (c.kind is CheckKind.CONTRACT) == (c.id == "input-contract"), (spec.drill_id, c.id)


def test_one_walk_finds_the_first_difference():
    exp = {"loss": np.asarray(1.0), "adv": np.array([1.0, 2.0, 3.0]), "nograd:x": None}
    assert first_difference(exp, dict(exp)) is None
    d = first_difference(exp, {**exp, "adv": np.array([1.0, 2.5, 3.5])})
    assert (d.field, d.index, float(d.expected), float(d.got)) == ("adv", (1,), 2.0, 2.5)
    assert first_difference(exp, {**exp, "nograd:x": np.ones(2)}) is None  # a support is compared only by name
    assert first_difference(exp, {**exp, "nograd:x": np.ones(2)}, ("nograd:x",)).field == "nograd:x"
    assert first_difference(exp, None).field == "result"
    assert first_difference({"v": np.asarray(1e6)}, {"v": np.asarray(1e6 + 5.0)}) is None  # relative to expected
    assert first_difference({"v": np.asarray(np.inf)}, {"v": np.asarray(-np.inf)}) is not None


def test_the_shrinking_steps():
    ex = Example({"x": np.array([[1.26, 2.0, 0.0], [3.0, 4.0, 0.0]]), "mask": np.array([[1, 1, 0], [1, 0, 0]], bool),
                  "ids": np.array([[7, 8, 9], [1, 2, 3]])}, {"beta": 0.1}, "random")
    rows = single_rows(ex, 2)
    assert [r.arrays["x"].tolist() for r in rows] == [[[1.26, 2.0, 0.0]], [[3.0, 4.0, 0.0]]]
    assert rows[0].hyper == {"beta": 0.1} and single_rows(ex, 1) == [] and len(single_rows(ex, 2, step=2)) == 0
    cut = cut_tokens(ex, 2, 3)
    assert cut.arrays["x"].shape == cut.arrays["mask"].shape == cut.arrays["ids"].shape == (2, 2)
    one, zero = rounded(ex)
    assert one.arrays["x"][0, 0] == 1.3 and zero.arrays["x"][0, 0] == 1.0
    assert zero.arrays["ids"].dtype == ex.arrays["ids"].dtype and zero.arrays["mask"].dtype == bool


def test_a_drill_made_of_terms_assembles_them_with_its_own_defaults():
    spec = spec_for("total-loss")
    assert spec.terms == {"policy": "policy-loss", "value": "value-loss"}
    seen = {}

    def policy(new_logp, old_logp, advantages, clip_eps):
        seen["clip_eps"] = clip_eps
        return 1.0

    total = spec.assemble({"policy": policy, "value": lambda v, ov, r, clip_eps: 2.0})
    a = np.zeros(3)
    entropy = np.array([1.0, 2.0, 3.0])
    d = spec.hyper_defaults
    assert total(a, a, a, a, a, a, entropy) == pytest.approx(1.0 + d["vf_coef"] * 2.0 - d["ent_coef"] * 2.0)
    assert seen["clip_eps"] == d["clip_eps"]
    assert total(a, a, a, a, a, a, entropy, vf_coef=1.0, ent_coef=0.0) == pytest.approx(3.0)


def test_a_message_reads_the_examples_settings_else_the_specs_defaults():
    spec = spec_for("policy-loss")
    check = Check("band", "t", "with clip_eps = {clip_eps} your loss is {got}", fields=("loss",))
    from checker.specs.base import Mismatch

    mm = Mismatch("loss", (), np.asarray(1.0), np.asarray(2.0))
    default = Failure(0, Example({}, {}, "random"), mm)
    given = Failure(0, Example({}, {"clip_eps": 0.1}, "random"), mm)
    assert message(spec, check, default) == "with clip_eps = 0.2 your loss is 2.0"
    assert message(spec, check, given) == "with clip_eps = 0.1 your loss is 2.0"


def test_which_failures_are_made_smaller():
    assert shrinkable(Check("a", "t", "m", fields=("loss",)))
    assert shrinkable(next(c for c in OUTPUT_CHECKS if c.id == "output-nonfinite"))
    assert not shrinkable(next(c for c in OUTPUT_CHECKS if c.id == "output-shape"))
    assert not shrinkable(Check("b", "t", "m", custom=lambda ex, got: None))


def test_the_typed_report_reads_back_from_its_json():
    grade = TestGrade(3, 4, 0, 0, ["test_a"], [BugOutcome("b", "a bug", "card", False, [], "try t = 0")])
    report = Report("test-gae", "numpy", False, error=RunError("timeout", "too slow", 3, "tb"), tests=grade)
    again = report_from_json(report.to_json())
    assert again.error == report.error and again.tests == grade and again.to_json() == report.to_json()
    assert grade.caught_share == 0.75 and TestGrade(3, 4, 1, 1).caught_share == 0.0
    assert TestGrade(0, 0, 0, 0).caught_share is None
    assert not Report("gae", "numpy", False, error=RunError("syntax", "x")).code_ran
    assert Report("gae", "numpy", False, error=RunError("exception", "x")).code_ran
