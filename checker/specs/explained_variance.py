"""Checker spec of the `explained-variance` drill: explained_variance(values, returns, mask=None) -> float,
1 - Var[R - V] / Var[R] over valid tokens (either variance normalisation: the factor cancels), NaN when
Var[R] = 0, padding that may hold NaN or inf. NumPy and PyTorch, [B, T] both. Besides the comparison
with the reference, the checks test relations that hold for any right answer on inputs built for them:
a perfect critic gives 1, a constant critic 0, a critic off by a constant still 1."""
from __future__ import annotations

import numpy as np
import torch

from checker.reference import explained_variance
from checker.sandbox.model import Call
from checker.specs.base import (
    Check,
    DrillSpec,
    Example,
    Expected,
    OutputProblem,
    contract_check,
    describe,
    relation_compare,
    rounded,
    single_rows,
)
from checker.specs.losses import draw_array, grid
from checker.specs.token_batches import (
    draw_lengths,
    fill_padding,
    related,
    relation_check,
    right_padded,
)

WORKED = "edge: worked example"


def _mask(ex: Example) -> np.ndarray:
    m = ex.arrays.get("mask")
    return np.ones(ex.arrays["returns"].shape, dtype=bool) if m is None else m


def _valid(ex: Example, name: str) -> np.ndarray:
    return np.asarray(ex.arrays[name], dtype=np.float64)[_mask(ex)]


def _ok(ex: Example) -> bool:
    return ex.invalid is None


def _spread(ex: Example, name: str = "returns") -> bool:
    r = _valid(ex, name)
    return bool(r.max() > r.min())


def _tame(ex: Example) -> bool:
    m = _mask(ex)
    return all(np.isfinite(ex.arrays[k][~m]).all() for k in ("values", "returns"))


def _relation(kind: str):
    def applies(ex: Example) -> bool:
        if not (_ok(ex) and _spread(ex) and _tame(ex)):
            return False
        d = _valid(ex, "returns") - _valid(ex, "values")
        v = _valid(ex, "values")
        if kind == "perfect":
            return bool((d == 0).all())
        if kind == "offset":
            return bool((d == d[0]).all() and d[0] != 0)
        return bool((v == v[0]).all())  # constant critic
    return applies


def _finite_result(ex: Example, got: dict) -> str | None:
    value = float(got["ev"])
    return None if np.isfinite(value) else f"{value} on {ex.label}"


class ExplainedVarianceSpec(DrillSpec):
    drill_id = "explained-variance"
    function = "explained_variance"
    positional = ("values", "returns", "mask")
    roles = {"mask": ("mask",), "nonfinite_padding": "padded values and returns may hold NaN and inf",
             "std_convention": "one normalisation in both variances (either, the factor cancels)",
             "card:std-bessel-correction": "value-explained-variance"}
    hyper_defaults = {}
    output_fields = ("ev",)

    def strategy(self, framework: str):
        from hypothesis import strategies as st

        @st.composite
        def draw(draw):
            B, T = draw(st.integers(1, 3)), draw(st.integers(1, 6))
            mask = right_padded(draw_lengths(draw, B, T), T)
            returns = draw_array(draw, grid(-2.0, 3.0, 0.25), (B, T))
            kind = draw(st.sampled_from(["noise", "noise", "free", "perfect", "offset", "constant"]))
            if kind == "noise":
                values = returns + draw_array(draw, grid(-1.0, 1.0, 0.25), (B, T))
            elif kind == "free":
                values = draw_array(draw, grid(-2.0, 3.0, 0.25), (B, T))
            elif kind == "perfect":
                values = returns.copy()
            elif kind == "offset":
                values = returns + draw(st.sampled_from([-1.5, 0.5, 2.0]))
            else:
                values = np.full((B, T), draw(grid(-1.0, 1.0, 0.25)))
            if draw(st.integers(0, 5)) == 0:  # returns without spread
                returns = np.full((B, T), draw(grid(-1.0, 1.0, 0.5)))
            arrays = {"values": values, "returns": returns}
            if draw(st.integers(0, 3)) > 0 or mask.all():
                arrays["mask"] = mask
                if draw(st.booleans()):
                    arrays["values"] = fill_padding(draw, arrays["values"], mask)
                    arrays["returns"] = fill_padding(draw, arrays["returns"], mask)
            if draw(st.integers(0, 4)) == 0:
                arrays["values"] = arrays["values"].astype(np.float32)
                arrays["returns"] = arrays["returns"].astype(np.float32)
            return Example(arrays)
        return draw()

    def edge_cases(self, framework: str) -> list[Example]:
        f = lambda rows, dtype=np.float64: np.asarray(rows, dtype=dtype)  # noqa: E731
        nan, inf = np.nan, np.inf
        worked = {"values": f([[0.5, 1.0, 2.5], [1.5, nan, inf]]), "returns": f([[1.0, 0.0, 3.0], [2.0, -inf, 7.0]]),
                  "mask": right_padded([3, 1], 3)}
        rng = np.random.default_rng(9)
        long_r = np.round(rng.normal(size=(3, 64)) * 4) / 4
        skew_mask = right_padded([64, 1, 17], 64)
        skew = {"values": np.where(skew_mask, long_r + np.round(rng.normal(size=(3, 64)) * 2) / 4, nan),
                "returns": np.where(skew_mask, long_r, inf), "mask": skew_mask}
        ok = [
            Example(worked, {}, f"{WORKED}"),
            Example({"values": worked["values"][:, :3].copy(), "returns": f([[1.0, 1.0, 1.0], [1.0, 5.0, 5.0]]),
                     "mask": right_padded([3, 1], 3)}, {}, "edge: every valid return equal (Var[R] = 0)"),
            Example({"values": f([[0.25]]), "returns": f([[2.0]])}, {}, "edge: a single valid token (Var[R] = 0)"),
            Example({"values": f([[1.0, 0.0, 3.0, 9.0]]), "returns": f([[1.0, 0.0, 3.0, -9.0]]),
                     "mask": right_padded([3], 4)}, {}, "edge: a perfect critic on the valid tokens"),
            Example({"values": f([[2.0, 1.0, 4.0, 1.0]]), "returns": f([[1.0, 0.0, 3.0, 0.0]])}, {},
                    "edge: a critic off by a constant, no mask"),
            Example({"values": f([[0.5, 0.5, 0.5], [0.5, 3.0, 3.0]]), "returns": f([[1.0, 0.0, 3.0], [2.0, 0.0, 0.0]]),
                     "mask": right_padded([3, 1], 3)}, {}, "edge: a constant critic"),
            Example({"values": f([[3.0, -2.0, 0.0]]), "returns": f([[-1.0, 2.0, 0.5]])}, {},
                    "edge: worse than a constant (negative)"),
            Example(skew, {}, "edge: rows of 64, 1 and 17 tokens, NaN and inf in padding"),
            Example({k: v.astype(np.float32) if k != "mask" else v for k, v in worked.items()}, {},
                    "edge: float32 inputs"),
        ]
        base = {"values": f([[0.5, 1.0, 2.5], [1.5, 0.0, 0.0]]), "returns": f([[1.0, 0.0, 3.0], [2.0, 0.0, 0.0]])}
        ok += [related(base, {}, "edge: mask left out", "mask-none", "none"),
               related({**base, "mask": np.ones((2, 3), dtype=bool)}, {}, "edge: an all-True mask", "mask-none",
                       "all-true")]
        for role, fill in (("as-given", 0.0), ("changed", nan)):
            m = right_padded([3, 1], 3)
            arrays = {"values": np.where(m, base["values"], fill), "returns": np.where(m, base["returns"], -fill),
                      "mask": m}
            ok.append(related(arrays, {}, f"edge: padding {role.replace('-', ' ')}", "padding", role))
        m = right_padded([3, 2], 3)
        for role, c in (("as-given", 0.0), ("shifted", 2.5)):
            ok.append(related({"values": f([[0.5, 1.0, 2.5], [1.5, -1.0, 0.0]]) + c,
                               "returns": f([[1.0, 0.0, 3.0], [2.0, -0.5, 0.0]]), "mask": m}, {},
                              f"edge: a critic{' shifted by 2.5' if c else ''}", "shift", role))
        # values and returns shifted by one large constant, in float32: EV does not change (both variances are of
        # differences from a mean); every number is on a 1/8 grid, so the deviations and their squares are exact
        for k, (vals, rets, mask) in enumerate((
                ([[0.5, 1.0, 2.5], [1.5, 0.0, 0.0]], [[1.0, 0.0, 3.0], [2.0, 0.0, 0.0]], right_padded([3, 1], 3)),
                ([[0.25, -1.0, 2.0, 0.75]], [[0.5, -1.5, 2.5, 1.0]], None))):
            for role, c in (("as-given", 0.0), ("offset", 4096.0)):
                arrays = {"values": f(vals, np.float32) + np.float32(c), "returns": f(rets, np.float32) + np.float32(c)}
                if mask is not None:
                    arrays["mask"] = mask
                ok.append(related(arrays, {}, f"edge: float32 values and returns{' plus 4096' if c else ''}"
                                  f"{', a padded row' if mask is not None else ''}", f"offset-{k}", role))
        bad = [Example({"values": f([[1.0, 2.0]]), "returns": f([[1.0, 2.0, 3.0]])}, {},
                       "contract: values and returns of different shapes", invalid="values and returns of different "
                                                                                  "shapes")]
        return ok + bad

    def shrink(self, ex: Example) -> list[Example]:
        if ex.invalid is not None:
            return []
        return single_rows(ex, ex.arrays["returns"].shape[0]) + rounded(ex)

    def to_call(self, ex: Example, framework: str):
        call = super().to_call(ex, framework)
        return Call(call.args, call.kwargs, expect_error=ex.invalid is not None)

    def reference(self, ex: Example, framework: str) -> Expected:
        if ex.arrays["values"].shape != ex.arrays["returns"].shape:
            return Expected({}, error="shape")
        m = ex.arrays.get("mask")
        ev = explained_variance(torch.tensor(np.asarray(ex.arrays["values"], dtype=np.float64)),
                                torch.tensor(np.asarray(ex.arrays["returns"], dtype=np.float64)),
                                None if m is None else torch.from_numpy(m.copy()))
        return Expected({"ev": np.asarray(float(ev))})

    def extract(self, value, ex: Example, framework: str) -> dict:
        if isinstance(value, bool) or not (isinstance(value, (int, float)) or getattr(value, "shape", None) == ()):
            raise OutputProblem("output-type", f"explained_variance returns one number (a float, or a 0-d "
                                               f"array or tensor); yours returned {describe(value)}")
        return {"ev": np.asarray(float(np.asarray(value)))}

    def checks(self) -> list[Check]:
        ev = ("ev",)
        return [
            contract_check("values and returns of different shapes raise ValueError"),
            Check("worked-example", "reproduces the prompt's worked example",
                  "On the prompt's worked example your explained variance is {got}; it must be {expected}.",
                  applies=lambda ex: ex.label.startswith(WORKED), fields=ev),
            Check("perfect-critic", "a critic equal to the returns on valid tokens gives 1",
                  "Where values == returns on every valid token, Var[R - V] = 0 and the explained variance is "
                  "exactly 1; yours is {got}.", applies=_relation("perfect"), fields=ev),
            Check("offset-critic", "a critic off by a constant explains as much (a variance, not a squared error)",
                  "Var[R - (V + c)] = Var[R - V]: shifting every value by a constant must not change the explained "
                  "variance (so a critic off by a constant still gives 1): {detail}.", relation="shift",
                  compare=relation_compare("shifted", "as-given", "with the critic shifted by 2.5",
                                           "with the critic as given")),
            Check("constant-critic", "a constant critic gives 0",
                  "A critic that predicts the same value everywhere explains nothing: Var[R - c] = Var[R], so the "
                  "explained variance is 0; yours is {got}.", applies=_relation("constant"), fields=ev),
            Check("zero-variance-nan", "returns without spread give NaN",
                  "When every valid return is equal, Var[R] = 0 and the explained variance is undefined: return NaN; "
                  "yours is {got}.", applies=lambda ex: _ok(ex) and not _spread(ex), fields=ev),
            Check("padding-nonfinite", "NaN and inf in padding do not reach the result",
                  "Padded slots hold NaN or inf and the valid returns vary, yet your explained variance is "
                  "{detail}: what the padding holds reached the result.",
                  applies=lambda ex: _ok(ex) and _spread(ex) and _spread(ex, "values") and not _tame(ex),
                  custom=_finite_result),
            *relation_check("mask-default", "mask=None means every token is valid",
                            "Leaving mask out must behave as an all-True mask: {detail}.", "mask-none", "none",
                            "all-true", "without a mask", "with an all-True mask"),
            *relation_check("padding-contents", "what padding holds does not matter",
                            "Positions where mask is False must not count, whatever they hold: {detail}.",
                            "padding", "changed", "as-given", "with NaN in the padding", "with zeros there"),
            *relation_check("common-offset", "values and returns shifted by one large constant give the same EV",
                            "Var[R - V] and Var[R] are spreads around a mean, so adding 4096 to every value and return "
                            "changes neither (in float32 too): {detail}.", "offset-0", "offset", "as-given",
                            "with 4096 added to values and returns", "as given"),
            *relation_check("common-offset-unmasked", "the same with no mask",
                            "Var[R - V] and Var[R] are spreads around a mean, so adding 4096 to every value and return "
                            "changes neither (in float32 too): {detail}.", "offset-1", "offset", "as-given",
                            "with 4096 added to values and returns", "as given"),
            Check("matches-reference", "the explained variance matches the reference on random batches",
                  "Your explained variance differs from the reference: expected {expected}, got {got}.", fields=ev),
        ]


SPEC = ExplainedVarianceSpec()
