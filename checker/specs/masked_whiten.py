"""Checker spec of the `masked-whiten` drill (PyTorch): masked_whiten(advantages, response_mask,
shift_mean=True, eps=1e-8) -> whitened [B, T]: (A - mean) / sqrt(var + eps) with the mean and the
population (biased) variance over the valid tokens of the whole batch, padding set to 0, and with
shift_mean=False the mean added back on valid tokens.
"""
from __future__ import annotations

import numpy as np
import torch

from checker.reference import masked_whiten
from checker.specs.base import Check, Example, close, first_where, relation_compare
from checker.specs.losses import draw_array, grid
from checker.specs.token_base import TokenSpec, draw_lengths, fill_padding, prefix_mask

WORKED_ADV = [[1.0, 2.0, 3.0], [4.0, 100.0, -50.0]]
WORKED_LENGTHS = [3, 1]
VALID_W = TokenSpec.on_valid("whitened")


def _shift(ex: Example) -> bool:
    return ex.hyper.get("shift_mean", True)


def _valid_input(ex: Example) -> np.ndarray:
    return ex.arrays["advantages"].astype(np.float64)[ex.arrays["response_mask"]]


def _spread(ex: Example) -> bool:
    """The valid advantages vary enough that the eps term is negligible next to their variance."""
    return ex.invalid is None and float(np.var(_valid_input(ex))) > 1e-3


def _zero_mean(ex: Example, got: dict) -> str | None:
    w = got["whitened"][ex.arrays["response_mask"]]
    m = float(np.mean(w)) if np.isfinite(w).all() else float("nan")
    if abs(m) <= 1e-6:
        return None
    return f"the mean of your whitened advantages over the valid tokens is {m:.6g}"


def _unit_variance(ex: Example, got: dict) -> str | None:
    w = got["whitened"][ex.arrays["response_mask"]]
    v = float(np.mean((w - np.mean(w)) ** 2)) if np.isfinite(w).all() else float("nan")
    if abs(v - 1.0) <= 1e-5:
        return None
    return (f"over the {w.size} valid tokens the (population) variance of your whitened advantages is "
            f"{v:.6g}")


def _mean_restored(ex: Example, got: dict) -> str | None:
    w = got["whitened"][ex.arrays["response_mask"]]
    want = float(np.mean(_valid_input(ex)))
    m = float(np.mean(w)) if np.isfinite(w).all() else float("nan")
    if abs(m - want) <= 1e-6 * max(1.0, abs(want)):
        return None
    return f"with shift_mean=False the mean over valid tokens must stay {want:.6g}; yours is {m:.6g}"


# The batch-statistics relation: rows of 16, 1 and 9 valid tokens with different means, and the same 26
# values laid out as one row. Statistics over the whole batch whiten every value the same either way.
_BATCH_ROWS = (16, 1, 9)


def _batch_compare(got: dict, where=None) -> str | None:
    if got.get("rows") is None or got.get("one-row") is None:
        return None
    T = _BATCH_ROWS[0]
    rows = np.asarray(got["rows"][VALID_W])[prefix_mask(list(_BATCH_ROWS), T)]
    one = np.asarray(got["one-row"][VALID_W])[0, :sum(_BATCH_ROWS)]
    ok = close(rows, one)
    if ok.all():
        return None
    k = first_where(~ok)[0]
    b = int(np.searchsorted(np.cumsum(_BATCH_ROWS), k, side="right"))
    t = k - int(sum(_BATCH_ROWS[:b]))
    return (f"the value at row {b}, t = {t} whitens to {rows[k]:.6g} in the batch of rows {list(_BATCH_ROWS)} but to "
            f"{one[k]:.6g} when the same valid tokens form one row")


class MaskedWhitenSpec(TokenSpec):
    drill_id = "masked-whiten"
    function = "masked_whiten"
    positional = ("advantages", "response_mask")
    roles = {
        "mask": ("response_mask",),
        "padded_outputs": True,
        "nonfinite_padding": "padded advantages may hold NaN and inf",
        "std_convention": "the population variance (divide by N)",
        "whitening": True,
    }
    hyper_defaults = {"shift_mean": True, "eps": 1e-8}
    outputs = (("whitened", "bt"),)

    def axis_classes(self):
        return [(" (shift_mean=True)", _shift), (" (shift_mean=False)", lambda ex: not _shift(ex))]

    def strategy(self, framework: str):
        from hypothesis import strategies as st

        @st.composite
        def draw(draw):
            B, T = draw(st.integers(1, 4)), draw(st.integers(1, 8))
            scale = draw(st.sampled_from([1.0, 1.0, 10.0, 0.1]))
            adv = draw_array(draw, grid(-3.0, 3.0, 0.25), (B, T)) * scale
            offset = draw_array(draw, grid(-2.0, 2.0, 0.5), (B, 1)) if draw(st.booleans()) else 0.0
            mask = prefix_mask(draw_lengths(draw, B, T), T)
            adv = fill_padding(adv + offset, mask, draw(st.sampled_from(["numbers", "numbers", "zeros", "nan",
                                                                        "inf", "huge"])))
            hyper = {}
            if draw(st.integers(0, 3)):
                hyper["shift_mean"] = draw(st.sampled_from([True, True, False]))
            arrays = {"advantages": adv, "response_mask": mask}
            if draw(st.integers(0, 3)) == 0:
                arrays["advantages"] = adv.astype(np.float32)
            return Example(arrays, hyper)
        return draw()

    def edge_cases(self, framework: str) -> list[Example]:
        f = lambda x: np.asarray(x, dtype=np.float64)  # noqa: E731

        def ex(a, lengths, label, **hyper):
            return Example({"advantages": f(a), "response_mask": prefix_mask(lengths, np.shape(a)[-1])}, hyper,
                           f"edge: {label}")

        rng = np.random.default_rng(17)
        T = 16
        long_rows = np.round(np.stack([rng.normal(0.0, 1.0, T), rng.normal(3.0, 0.5, T), rng.normal(-2.0, 2.0, T)]), 2)
        pad = prefix_mask([3, 1], 4)
        base = f([[0.5, -1.0, 2.0, 7.0], [3.0, 7.0, 7.0, 7.0]])
        cases = [
            ex(WORKED_ADV, WORKED_LENGTHS, "worked example", shift_mean=True),
            ex(WORKED_ADV, WORKED_LENGTHS, "worked example, shift_mean=False", shift_mean=False),
            ex(WORKED_ADV, WORKED_LENGTHS, "worked example, default shift_mean and eps"),
            ex(long_rows, [T, 1, 9], "rows of 16, 1 and 9 valid tokens with different means", shift_mean=True),
            ex(long_rows, [T, 1, 9], "rows with different means, shift_mean=False", shift_mean=False),
            ex([[0.5, 0.5, 0.5], [0.5, 9.0, -9.0]], [3, 1], "constant advantages (variance 0)", shift_mean=True),
            ex([[2.0, 2.0], [2.0, 2.0]], [2, 2], "constant advantages, shift_mean=False", shift_mean=False),
            ex([[1.5, 8.0, -3.0, 0.0]], [1], "a single valid token", shift_mean=True),
            ex([[1.5, 8.0, -3.0, 0.0]], [1], "a single valid token, shift_mean=False", shift_mean=False),
            ex([[300.0, -40.0, 120.0, 5.0], [80.0, -10.0, 0.0, 0.0]], [4, 2], "advantages from -40 to 300",
               shift_mean=True),
        ]
        for kind in ("nan", "inf", "huge"):
            cases.append(Example({"advantages": fill_padding(base, pad, kind), "response_mask": pad},
                                 {"shift_mean": True}, f"edge: {kind} padding"))
        cases += self.padding_pair({"advantages": base, "response_mask": pad}, {"shift_mean": True},
                                   "rows of 3 and 1 valid tokens", {k: {"advantages": k} for k in ("nan", "inf", "huge")})
        cases += self.defaults_pair(cases[0].arrays, "worked example")
        flat = np.zeros((1, sum(_BATCH_ROWS)))
        flat[0] = long_rows[prefix_mask(list(_BATCH_ROWS), T)]
        for role, a, lengths in (("rows", long_rows, list(_BATCH_ROWS)), ("one-row", flat, [sum(_BATCH_ROWS)])):
            cases.append(Example({"advantages": a, "response_mask": prefix_mask(lengths, a.shape[-1])},
                                 {"shift_mean": True}, f"edge: rows of 16, 1 and 9 valid tokens, "
                                 f"{'as rows' if role == 'rows' else 'laid out as one row'}",
                                 relation=("batch", role)))
        cases.append(Example({"advantages": f(WORKED_ADV).astype(np.float32),
                              "response_mask": prefix_mask(WORKED_LENGTHS, 3)}, {"shift_mean": True},
                             "edge: float32 advantages"))
        return cases

    def reference_outputs(self, ex: Example) -> dict:
        hyper = {**self.hyper_defaults, **ex.hyper}
        mask = torch.from_numpy(ex.arrays["response_mask"].copy())
        out = masked_whiten(ex.arrays["advantages"], mask, eps=hyper["eps"], shift_mean=hyper["shift_mean"])
        return {"whitened": torch.where(mask, out, torch.zeros((), dtype=torch.float64)).numpy()}

    def checks(self) -> list[Check]:
        return [
            Check("worked-example", "reproduces the prompt's worked example",
                  "On the prompt's {label}, your whitened advantages are {got}{at}; they must be {expected}.",
                  applies=lambda ex: ex.label.startswith("edge: worked example"), fields=("whitened",)),
            Check("zero-mean", "whitened valid tokens have mean 0",
                  "With shift_mean=True the whitened advantages have mean 0 over the valid tokens: {detail}.",
                  applies=lambda ex: _spread(ex) and _shift(ex), custom=_zero_mean),
            Check("unit-variance", "whitened valid tokens have population variance 1",
                  "Divided by sqrt(var + eps) with the population variance (divide by N, not N - 1), the "
                  "valid tokens have variance 1 (up to eps): {detail}.",
                  applies=_spread, custom=_unit_variance),
            Check("batch-statistics", "mean and variance are taken over the whole batch, not per row",
                  "The mean and the variance are those of all valid tokens of the batch together, so how they are "
                  "split into rows changes nothing: {detail}.", relation="batch", compare=_batch_compare),
            Check("constant-advantages", "constant advantages whiten to 0, not NaN (eps)",
                  "When every valid advantage is the same the variance is 0: eps keeps (A - mean) / sqrt(0 + eps) "
                  "at 0 (or the mean, with shift_mean=False); yours is {got}{at}, expected {expected}.",
                  applies=lambda ex: ex.label.startswith(("edge: constant", "edge: a single valid token")),
                  fields=(VALID_W,)),
            Check("shift-mean", "with shift_mean=False the mean is added back",
                  "shift_mean=False only rescales: the valid tokens keep their mean: {detail}.",
                  applies=lambda ex: ex.invalid is None and not _shift(ex), custom=_mean_restored),
            self.padding_check(),
            self.padding_relation_check((VALID_W,), "the whitened valid tokens"),
            Check("defaults", "defaults shift_mean=True, eps=1e-8",
                  "Called without shift_mean and eps your function must behave as with shift_mean=True and "
                  "eps=1e-8 passed: {detail}.", relation="defaults", compare=relation_compare(
                      "implicit", "explicit", "called without them", "with shift_mean=True, eps=1e-8 passed")),
            Check("matches-reference", "whitened advantages match the reference on random batches",
                  "Your whitened advantages differ from the reference{at}: expected {expected}, got {got}.",
                  fields=("whitened",)),
        ]


SPEC = MaskedWhitenSpec()
