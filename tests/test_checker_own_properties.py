"""Checks test the answer's own property: a mistake elsewhere does not fail a relation the answer keeps,
and a value check never calls an inf close to a finite number."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.warm_checker import check
from checker.specs.base import close, relation_same_on
from drills import get_drill


def _failed(drill: str, mistake: str, framework: str) -> set[str]:
    m = next(x for x in get_drill(drill).mistakes if x.id == mistake)
    report = check(m.source(framework), drill, framework, shrink_failure=False)
    assert not report.passed and mistake in report.mistake_ids, report.render()
    return {c.id for c in report.checks if not c.passed}


@pytest.mark.parametrize("drill, mistake", [("policy-loss", "ratio-inverted"), ("value-loss", "value-abs-error")])
def test_a_band_that_follows_clip_eps_passes_the_band_check_whatever_else_is_wrong(drill, mistake):
    assert "clip-eps" not in _failed(drill, mistake, "numpy")


@pytest.mark.parametrize("drill, mistake", [("policy-loss", "clip-eps-ignored"), ("policy-loss", "policy-no-clip")])
def test_a_band_that_ignores_clip_eps_fails_it(drill, mistake):
    assert "clip-eps" in _failed(drill, mistake, "numpy")


@pytest.mark.parametrize("drill, mistake", [("token-kl", "kl-direction-swapped"), ("kl-reward", "reward-kl-sign")])
def test_a_formula_mistake_keeps_the_padding_and_defaults_relations(drill, mistake):
    assert not {"padding-ignored", "defaults"} & _failed(drill, mistake, "numpy")


def test_inf_is_close_only_to_the_same_inf():
    assert not close(np.asarray(np.inf), np.asarray(1000.0)).any()
    assert not close(np.asarray(1000.0), np.asarray(np.inf)).any()
    assert close(np.asarray([np.inf, -np.inf, np.nan]), np.asarray([np.inf, -np.inf, np.nan])).all()
    assert not close(np.asarray(np.inf), np.asarray(-np.inf)).any()


SPECIAL = [0.0, -0.0, 1.0, 1.0 + 1e-9, 1.0 + 1e-3, 2.0, np.inf, -np.inf, np.nan, 1e308, -1e308, 1e-300, 5e-324]


@settings(max_examples=300, derandomize=True, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(SPECIAL), st.sampled_from(SPECIAL), st.floats(-1e-6, 1e-6)),
                min_size=1, max_size=6), st.booleans())
def test_close_is_the_rule_it_states_element_by_element(pairs, scalar):
    """|a - b| <= atol + rtol |b| and finite, or a == b, or both NaN: on arrays (whatever mix of finite,
    huge, tiny, inf and NaN they hold) and on single numbers alike."""
    from checker.specs.base import ATOL, RTOL

    a = np.array([x + e for x, _, e in pairs])
    b = np.array([y for _, y, _ in pairs])
    with np.errstate(invalid="ignore", over="ignore"):
        d = np.abs(a - b)
        want = ((d <= ATOL + RTOL * np.abs(b)) & np.isfinite(d)) | (a == b) | (np.isnan(a) & np.isnan(b))
    if scalar:
        assert [bool(close(np.asarray(x), np.asarray(y))) for x, y in zip(a, b)] == list(want)
    else:
        assert list(close(a, b)) == list(want)


def test_relation_same_on_names_the_role_and_element_that_differ():
    compare = relation_same_on("as-given", ("kl",), "with the padding as given")
    same = {"kl": np.array([[1.0, 2.0]])}
    assert compare({"as-given": same, "nan": {"kl": np.array([[1.0, 2.0]])}}) is None
    detail = compare({"as-given": same, "nan": {"kl": np.array([[1.0, np.nan]])}})
    assert "kl at 0, 1" in detail and "with nan padding" in detail
    # with a spec's `where` (as the engine passes it), the place reads as in the drill's other messages
    from checker.specs import spec_for

    where = spec_for("token-kl").where
    detail = compare({"as-given": same, "nan": {"kl": np.array([[1.0, np.nan]])}}, where=where)
    assert "kl at row 0, t = 1" in detail
