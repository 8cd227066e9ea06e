"""Checker spec of the `loss-aggregation` drill: agg_loss(loss_mat, loss_mask, loss_agg_mode="token-mean",
norm_const=None) -> loss. verl's four aggregation modes over valid tokens, with seq-mean-token-sum-norm
in the Dr. GRPO convention (mean over sequences of sum / norm_const, norm_const defaulting to T), padding
that may hold NaN or inf, and (PyTorch) the gradient w.r.t. loss_mat. NumPy and PyTorch, [B, T] both."""
from __future__ import annotations

import numpy as np

from checker.reference import aggregate
from checker.specs.base import (
    Check,
    Example,
    Expected,
    contract_check,
    cut_tokens,
    rounded,
    single_rows,
)
from checker.specs.losses import LossSpec, draw_array, grid
from checker.specs.token_batches import (
    draw_lengths,
    fill_padding,
    mode_axes,
    related,
    relation_check,
    right_padded,
)

MODES = ("token-mean", "seq-mean-token-mean", "seq-mean-token-sum", "seq-mean-token-sum-norm")
WORKED = "edge: worked example"


def _mode(ex: Example) -> str:
    return ex.hyper.get("loss_agg_mode", "token-mean")


def _pads(ex: Example) -> np.ndarray:
    return ex.arrays["loss_mat"][~ex.arrays["loss_mask"]]


def _finite_pads(ex: Example) -> bool:
    return bool(np.isfinite(_pads(ex)).all())


def _mode_check(mode: str, ex: Example) -> bool:
    return ex.invalid is None and _mode(ex) == mode and _finite_pads(ex)


def _finite_loss(ex: Example, got: dict) -> str | None:
    value = float(np.asarray(got["loss"]))
    return None if np.isfinite(value) else f"{value} on {ex.label}"


class LossAggregationSpec(LossSpec):
    drill_id = "loss-aggregation"
    function = "agg_loss"
    positional = ("loss_mat", "loss_mask")
    roles = {"mask": ("loss_mask",), "nonfinite_padding": "padded losses may hold NaN and inf"}
    hyper_defaults = {"loss_agg_mode": "token-mean", "norm_const": None}
    trainable = ("loss_mat",)
    constants = ()
    grad_of = ""

    def strategy(self, framework: str):
        from hypothesis import strategies as st

        @st.composite
        def draw(draw):
            B, T = draw(st.integers(1, 4)), draw(st.integers(1, 7))
            mask = right_padded(draw_lengths(draw, B, T), T)
            loss = draw_array(draw, grid(-2.0, 3.0, 0.25), (B, T))
            if draw(st.booleans()):
                loss = fill_padding(draw, loss, mask)
            if draw(st.integers(0, 4)) == 0:
                loss = loss.astype(np.float32)
            hyper = {}
            mode = draw(st.sampled_from([None, *MODES, "seq-mean-token-sum-norm"]))
            if mode is not None:
                hyper["loss_agg_mode"] = mode
            if mode == "seq-mean-token-sum-norm" and draw(st.booleans()):
                hyper["norm_const"] = draw(st.sampled_from([1.0, 4.0, 16.0]))
            return Example({"loss_mat": loss, "loss_mask": mask}, hyper)
        return draw()

    def edge_cases(self, framework: str) -> list[Example]:
        f = lambda rows, dtype=np.float64: np.asarray(rows, dtype=dtype)  # noqa: E731
        nan, inf = np.nan, np.inf
        worked = {"loss_mat": f([[1, 1, 1, 1], [3, nan, inf, -inf]]), "loss_mask": right_padded([4, 1], 4)}
        clean = {"loss_mat": f([[1, 1, 1, 1], [3, 0, 0, 0]]), "loss_mask": right_padded([4, 1], 4)}
        long = np.linspace(-1.0, 2.0, 64)
        skew = {"loss_mat": f([long, np.r_[0.5, np.full(63, 7.0)], np.r_[long[:17], np.full(47, nan)]]),
                "loss_mask": right_padded([64, 1, 17], 64)}
        ok = []
        for mode in MODES:
            ok.append(Example(clean, {"loss_agg_mode": mode}, f"{WORKED} ({mode}, padding 0)"))
            ok.append(Example(worked, {"loss_agg_mode": mode}, f"{WORKED} ({mode}, NaN and inf in padding)"))
            ok.append(Example(skew, {"loss_agg_mode": mode}, f"edge: rows of 64, 1 and 17 tokens ({mode})"))
        ok += [
            Example(clean, {"loss_agg_mode": "seq-mean-token-sum-norm", "norm_const": 8.0},
                    "edge: seq-mean-token-sum-norm with norm_const = 8"),
            Example({"loss_mat": f([[2.5], [-1.0], [0.5]]), "loss_mask": right_padded([1, 1, 1], 1)},
                    {"loss_agg_mode": "seq-mean-token-sum"}, "edge: one token per row"),
            Example({"loss_mat": f([[0.25, 1e4, -1e4]], np.float32), "loss_mask": right_padded([1], 3)},
                    {"loss_agg_mode": "token-mean"}, "edge: a single valid token, float32"),
            Example({"loss_mat": f([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]), "loss_mask": right_padded([3, 3], 3)}, {},
                    "edge: no padding, default mode"),
        ]
        ok += [related(clean, {}, "edge: the default mode, left out", "defaults", "implicit"),
               related(clean, {"loss_agg_mode": "token-mean", "norm_const": None}, "edge: the default mode, passed",
                       "defaults", "explicit")]
        for mode in ("token-mean", "seq-mean-token-sum"):
            for role, pads in (("as-given", [0.0, 0.0, 0.0]), ("changed", [nan, -inf, 1e4])):
                arrays = {"loss_mat": f([[1, 1, 1, 1], [3, *pads]]), "loss_mask": right_padded([4, 1], 4)}
                ok.append(related(arrays, {"loss_agg_mode": mode}, f"edge: padding {role.replace('-', ' ')} ({mode})",
                                  f"padding-{mode}", role))
        bad = [
            ("an unknown loss_agg_mode", {"loss_agg_mode": "seq-mean"}),
            ("norm_const = 0", {"loss_agg_mode": "seq-mean-token-sum-norm", "norm_const": 0.0}),
        ]
        return ok + [Example(clean, h, f"contract: {what}", invalid=what) for what, h in bad]  # type: ignore[arg-type]

    def shrink(self, ex: Example) -> list[Example]:
        if ex.invalid is not None:
            return []
        B, T = ex.arrays["loss_mask"].shape
        out = single_rows(ex, B)
        longest = int(ex.arrays["loss_mask"].sum(axis=1).max())
        # seq-mean-token-sum-norm divides by the padded length unless norm_const is given: cutting it changes the loss
        if longest < T and ("norm_const" in ex.hyper or _mode(ex) != "seq-mean-token-sum-norm"):
            out.append(cut_tokens(ex, longest, T))
        return out + rounded(ex)

    def reference_loss(self, tensors: dict, hyper: dict):
        mode = hyper["loss_agg_mode"]
        if mode not in MODES or (hyper["norm_const"] is not None and not hyper["norm_const"] > 0):
            raise ValueError(mode)
        return aggregate(tensors["loss_mat"], tensors["loss_mask"] != 0, mode.replace("-", "_"), hyper["norm_const"])

    def reference(self, ex: Example, framework: str):
        try:
            return super().reference(ex, framework)
        except ValueError as exc:
            return Expected({}, {}, error=str(exc))

    def checks(self) -> list[Check]:
        loss = ("loss",)
        return [
            contract_check("an unknown mode or a non-positive norm_const raises ValueError"),
            Check("worked-example", "reproduces the prompt's worked example",
                  "On the prompt's {label}, your loss is {got}; it must be {expected}.",
                  applies=lambda ex: ex.label.startswith(WORKED), fields=loss),
            Check("token-mean", "token-mean: sum over valid tokens / number of valid tokens",
                  "token-mean is the sum of the loss over every valid token of the batch divided by the number of "
                  "valid tokens; expected {expected}, got {got}.",
                  applies=lambda ex: _mode_check("token-mean", ex), fields=loss),
            Check("seq-mean-token-mean", "seq-mean-token-mean: each row's token mean, then the mean over rows",
                  "seq-mean-token-mean averages each row over its valid tokens, then averages the rows; "
                  "expected {expected}, got {got}.",
                  applies=lambda ex: _mode_check("seq-mean-token-mean", ex), fields=loss),
            Check("seq-mean-token-sum", "seq-mean-token-sum: each row's token sum, then the mean over rows",
                  "seq-mean-token-sum sums each row over its valid tokens (no division by its length), then "
                  "averages the rows; expected {expected}, got {got}.",
                  applies=lambda ex: _mode_check("seq-mean-token-sum", ex), fields=loss),
            Check("seq-mean-token-sum-norm", "seq-mean-token-sum-norm: mean over rows of token sum / norm_const",
                  "seq-mean-token-sum-norm (Dr. GRPO) divides each row's token sum by norm_const (T = "
                  "loss_mat.shape[-1] when None) and averages over rows; expected {expected}, got {got}.",
                  applies=lambda ex: _mode_check("seq-mean-token-sum-norm", ex), fields=loss),
            Check("padding-nonfinite", "NaN and inf in padding do not reach the loss",
                  "Padded slots hold NaN or inf, yet your loss is {detail}: what the padding holds reached the "
                  "loss.",
                  applies=lambda ex: ex.invalid is None and not _finite_pads(ex), custom=_finite_loss),
            *relation_check("defaults", "the default mode is token-mean",
                            "Called without loss_agg_mode and norm_const your function must behave as with "
                            "loss_agg_mode='token-mean', norm_const=None passed: {detail}.",
                            "defaults", "implicit", "explicit", "called without them", "with the defaults passed"),
            *relation_check("padding-contents-token-mean", "what padding holds does not matter (token-mean)",
                            "Positions where loss_mask is False must not count, whatever they hold: {detail}.",
                            "padding-token-mean", "changed", "as-given", "with NaN, -inf and 1e4 in the padding",
                            "with zeros there"),
            *relation_check("padding-contents-seq-sum", "what padding holds does not matter (seq-mean-token-sum)",
                            "Positions where loss_mask is False must not count, whatever they hold: {detail}.",
                            "padding-seq-mean-token-sum", "changed", "as-given",
                            "with NaN, -inf and 1e4 in the padding", "with zeros there"),
            Check("matches-reference", "the loss matches the reference on random batches",
                  "Your loss differs from the reference: expected {expected}, got {got}.", fields=loss),
            *self.gradient_checks(),
        ]

    def axes(self, framework: str):
        """The loss under each mode (with its gradient in PyTorch) is its own axis."""
        return mode_axes(MODES, _mode, "loss_mat" if framework == "torch" else None)

    def grad_hint(self, name: str) -> str:
        return (" Each valid token's gradient is its weight in the mode (1 / N for token-mean, 1 / (B * n_b) for "
                "seq-mean-token-mean, ...); padding gets 0, never NaN.")


SPEC = LossAggregationSpec()
