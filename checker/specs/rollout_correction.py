"""Checker spec of the `rollout-correction` drill: corrected_policy_loss(log_prob, old_log_prob,
rollout_log_prob, advantages, response_mask, level="token", mode="truncate", threshold=2.0, clip_eps=0.2)
-> (loss, weights). The trainer/rollout mismatch correction of verl's rollout correction: PPO's ratio
pi_theta / pi_old times a detached weight pi_old / pi_rollout computed by the trainer, per token or per
sequence (the product over its valid tokens), truncated at the threshold (TIS) or used to reject tokens
or sequences outside [1 / threshold, threshold] (MIS), averaged over the kept tokens.

The weights are compared on the kept tokens only (what a rejected token holds is not checked: verl
keeps the true ratio there, 0 is as good), and must be 0 on padding. Each (level, mode) is its own class
of examples for the weights and for the loss with its gradient."""
from __future__ import annotations

import numpy as np

from checker.reference.mismatch import corrected_policy_loss
from checker.specs.base import Axis, Check, Example, contract_check, first_where
from checker.specs.llm_outputs import LlmOutputsSpec, finite_padding, right_padded
from checker.specs.losses import draw_array, grid
from checker.specs.token_batches import as_float32, draw_lengths, maybe_fill_padding

FLOATS = ("log_prob", "old_log_prob", "rollout_log_prob", "advantages")
LEVELS = ("token", "sequence")
MODES = ("truncate", "mask")
WORKED = "edge: worked example"
LN2 = float(np.log(2.0))
WORKED_OLD = [[-1.0, -0.5, -2.0], [-0.3, -1.2, 0.0]]
WORKED_ROLLOUT = [[-1.5, -0.5, -1.0], [-0.3, -2.0, 0.0]]
WORKED_NEW = [[-0.8, -0.5, -2.1], [-0.2, -1.2, 0.0]]
WORKED_ADV = [[1.0, 1.0, 1.0], [-1.0, -1.0, 0.0]]


def _level(ex: Example) -> str:
    return ex.hyper.get("level", "token")


def _mode(ex: Example) -> str:
    return ex.hyper.get("mode", "truncate")


def _tame(ex: Example) -> bool:
    return ex.invalid is None and finite_padding(ex, FLOATS)


def _kept(ex: Example) -> np.ndarray:
    """The tokens the loss keeps (the reference's rule, computed here from the inputs)."""
    m = ex.arrays["response_mask"]
    with np.errstate(all="ignore"):
        lw = np.where(m, np.asarray(ex.arrays["old_log_prob"], np.float64)
                      - np.asarray(ex.arrays["rollout_log_prob"], np.float64), 0.0)
    if _level(ex) == "sequence":
        lw = np.repeat(lw.sum(-1, keepdims=True), m.shape[1], axis=1)
    if _mode(ex) == "truncate":
        return m
    t = float(ex.hyper.get("threshold", 2.0))
    w = np.exp(lw)
    return m & (w >= 1.0 / t) & (w <= t)


class RolloutCorrectionSpec(LlmOutputsSpec):
    drill_id = "rollout-correction"
    function = "corrected_policy_loss"
    positional = ("log_prob", "old_log_prob", "rollout_log_prob", "advantages", "response_mask")
    hyper_defaults = {"level": "token", "mode": "truncate", "threshold": 2.0, "clip_eps": 0.2}
    roles = {"mask": ("response_mask",), "nonfinite_padding": "padded log-probs and advantages may hold NaN and inf",
             "old_logp": ("old_log_prob",), "advantages": ("advantages",)}
    trainable = ("log_prob",)
    constants = ("old_log_prob", "rollout_log_prob", "advantages")
    outputs = (("loss", "scalar"), ("weights", "bt"))

    def defined(self, ex: Example, name: str) -> np.ndarray:
        return _kept(ex) if ex.invalid is None else ex.arrays[self.mask_name]

    def strategy(self, framework: str):
        from hypothesis import strategies as st

        @st.composite
        def draw(draw):
            B, T = draw(st.integers(1, 3)), draw(st.integers(1, 5))
            mask = right_padded(draw_lengths(draw, B, T), T)
            old = draw_array(draw, grid(-3.0, -0.25, 0.125), (B, T))
            new = old + draw_array(draw, grid(-0.5, 0.5, 0.0625), (B, T))
            rollout = old - draw_array(draw, grid(-1.5, 1.5, 0.25), (B, T))
            adv = draw_array(draw, grid(-2.0, 2.0, 0.25), (B, T))
            arrays = {"log_prob": new, "old_log_prob": old, "rollout_log_prob": rollout, "advantages": adv,
                      "response_mask": mask}
            arrays = maybe_fill_padding(draw, arrays, mask, FLOATS)
            hyper = {}
            for key, values in (("level", LEVELS), ("mode", MODES)):
                v = draw(st.sampled_from([None, *values]))
                if v is not None:
                    hyper[key] = v
            t = draw(st.sampled_from([None, 1.5, 2.0, 4.0]))
            if t is not None:
                hyper["threshold"] = t
            return Example(arrays, hyper)
        return draw()

    def edge_cases(self, framework: str) -> list[Example]:
        f = lambda rows, dtype=np.float64: np.asarray(rows, dtype=dtype)  # noqa: E731
        nan, inf = np.nan, np.inf
        mask = right_padded([3, 2], 3)
        worked = {"log_prob": f(WORKED_NEW), "old_log_prob": f(WORKED_OLD), "rollout_log_prob": f(WORKED_ROLLOUT),
                  "advantages": f(WORKED_ADV), "response_mask": mask}
        poisoned = dict(worked, log_prob=np.where(mask, worked["log_prob"], nan),
                        old_log_prob=np.where(mask, worked["old_log_prob"], -inf),
                        rollout_log_prob=np.where(mask, worked["rollout_log_prob"], inf),
                        advantages=np.where(mask, worked["advantages"], nan))
        # weights exactly on the thresholds: old - rollout = +-log 2 with exact floats
        bmask = right_padded([4, 2], 4)
        boundary = {"log_prob": f([[0.0, -LN2, -0.5, -1.0], [-LN2 / 2, 0.0, 0.0, 0.0]]),
                    "old_log_prob": f([[0.0, -LN2, -0.5, -1.0], [0.0, 0.0, 0.0, 0.0]]),
                    "rollout_log_prob": f([[-LN2, 0.0, -0.5, -1.0 + 1e-9], [-LN2 / 2, -LN2 / 2, 0.0, 0.0]]),
                    "advantages": f([[1.0, -1.0, 0.5, 2.0], [1.0, -1.0, 0.0, 0.0]]), "response_mask": bmask}
        rng = np.random.default_rng(23)
        lmask = right_padded([48, 1, 20], 48)
        lold = np.round(rng.uniform(-3, -0.5, (3, 48)) * 8) / 8
        long = {"log_prob": np.where(lmask, lold + np.round(rng.uniform(-0.3, 0.3, (3, 48)) * 16) / 16, -inf),
                "old_log_prob": np.where(lmask, lold, -inf),
                "rollout_log_prob": np.where(lmask, lold - np.round(rng.normal(0, 0.05, (3, 48)) * 64) / 64, nan),
                "advantages": np.where(lmask, np.repeat([[1.0], [-1.5], [0.5]], 48, axis=1), nan),
                "response_mask": lmask}
        ok = []
        for level in LEVELS:
            for mode in MODES:
                h = {"level": level, "mode": mode}
                ok += [Example(worked, h, f"{WORKED} ({level}, {mode})"),
                       Example(worked, dict(h, threshold=1.5), f"edge: the worked example, threshold 1.5 ({level}, {mode})"),
                       Example(poisoned, h, f"edge: NaN and inf in the padding ({level}, {mode})"),
                       Example(boundary, h, f"edge: weights exactly 2 and 0.5 ({level}, {mode})"),
                       Example(boundary, dict(h, threshold=1.5), f"edge: weights 2 and 0.5, threshold 1.5 ({level}, {mode})"),
                       Example(long, h, f"edge: rows of 48, 1 and 20 tokens ({level}, {mode})")]
        ok += [Example(as_float32(worked, FLOATS),
                       {"level": "sequence", "mode": "mask"}, "edge: float32 inputs"),
               Example(dict(worked, log_prob=worked["old_log_prob"]), {"level": "token", "mode": "truncate"},
                       "edge: the policy has not moved (log_prob == old_log_prob)"),
               Example(worked, {"clip_eps": 0.1}, "edge: the worked example with clip_eps = 0.1")]
        ok += self.defaults_pair(worked, "the worked example")
        near = {"log_prob": f([[-1.0, -0.6, 0.0, 0.0], [-0.4, -1.1, -2.0, 0.0]]),
                "old_log_prob": f([[-0.9, -0.5, 0.0, 0.0], [-0.5, -1.0, -2.2, 0.0]]),
                "rollout_log_prob": f([[-1.1, -0.3, 0.0, 0.0], [-0.4, -1.0, -2.5, 0.0]]),
                "advantages": f([[1.0, 1.0, 0.0, 0.0], [-0.5, -0.5, -0.5, 0.0]]), "response_mask": right_padded([2, 3], 4)}
        for level in LEVELS:
            for ex in self.padding_pair(near, {"level": level, "mode": "mask"}, f"rows of 2 and 3 tokens ({level}, mask)",
                                        FLOATS):
                ok.append(Example(ex.arrays, ex.hyper, ex.label, relation=(f"padding-{level}", ex.relation[1])))
        bad: list[tuple[str, dict]] = [("an unknown level 'geometric'", {"level": "geometric"}), ("an unknown mode 'clip'", {"mode": "clip"}),
               ("threshold = 1 (it must exceed 1)", {"threshold": 1.0}), ("threshold = 0.5", {"threshold": 0.5})]
        return ok + [Example(worked, h, f"contract: {what}", invalid=what) for what, h in bad]

    def reference_outputs(self, t: dict, hyper: dict) -> dict:
        loss, w = corrected_policy_loss(t["log_prob"], t["old_log_prob"], t["rollout_log_prob"], t["advantages"],
                                        t["response_mask"], hyper["level"], hyper["mode"], hyper["threshold"],
                                        hyper["clip_eps"])
        return {"loss": loss, "weights": w}

    def kinks(self, ex: Example) -> dict:
        eps = ex.hyper.get("clip_eps", 0.2)
        with np.errstate(all="ignore"):
            r = np.exp(np.asarray(ex.arrays["log_prob"], np.float64) - np.asarray(ex.arrays["old_log_prob"], np.float64))
        edge = (np.abs(r - (1 - eps)) <= 1e-9) | (np.abs(r - (1 + eps)) <= 1e-9)
        return {"log_prob": edge & ex.arrays["response_mask"]}

    def checks(self) -> list[Check]:
        kept = self.compared("weights")
        out = [
            contract_check("an unknown level or mode, or threshold <= 1, raises ValueError"),
            Check("worked-example", "reproduces the prompt's worked example",
                  "On the prompt's worked example ({label}) your {field}{at} is {got}; it must be {expected}.",
                  applies=lambda ex: ex.label.startswith(WORKED), fields=("loss", kept)),
        ]
        words = {("token", "truncate"): "each token's pi_old / pi_rollout, capped at the threshold from above",
                 ("token", "mask"): "each token's pi_old / pi_rollout on the tokens kept (1 / threshold <= w <= threshold)",
                 ("sequence", "truncate"): "the product of the row's token weights, capped at the threshold, on every "
                                           "valid token of the row",
                 ("sequence", "mask"): "the product of the row's token weights on every token of a kept row"}
        for level in LEVELS:
            for mode in MODES:
                out.append(Check(f"weights-{level}-{mode}", f"{level}, {mode}: {words[(level, mode)]}",
                                 f"With level={level!r}, mode={mode!r} the weight is {words[(level, mode)]}; yours{{at}} is "
                                 "{got}, expected {expected}.",
                                 applies=(lambda lv, md: lambda ex: _tame(ex) and _level(ex) == lv and _mode(ex) == md)(level, mode),
                                 fields=(kept,)))
        out += [
            Check("loss-truncate", "truncate: the weighted PPO loss averaged over every valid token",
                  "With mode='truncate' the loss is the mean over the valid tokens of w * (-min(r A, clip(r, 1 - "
                  "clip_eps, 1 + clip_eps) A)), r = pi_theta / pi_old; expected {expected}, got {got}.",
                  applies=lambda ex: _tame(ex) and _mode(ex) == "truncate", fields=("loss",)),
            Check("loss-mask", "mask: the weighted PPO loss averaged over the kept tokens only",
                  "With mode='mask' rejected tokens leave the loss, numerator and denominator: the loss is the mean "
                  "over the kept tokens of w * (-min(r A, clip(r) A)); expected {expected}, got {got}.",
                  applies=lambda ex: _tame(ex) and _mode(ex) == "mask", fields=("loss",)),
            self.padding_zero_check(),
            Check("padding-nonfinite", "NaN and inf in padding reach neither outputs nor gradient",
                  "Padded slots hold NaN or inf, yet {detail}; select with where(mask, x, 0) before subtracting.",
                  applies=lambda ex: ex.invalid is None and not finite_padding(ex, FLOATS), custom=_finite_outputs),
            self.defaults_relation("level='token', mode='truncate', threshold=2.0, clip_eps=0.2"),
            *[Check(f"padding-contents-{level}", f"what padding holds changes nothing ({level}, mask)",
                    "Positions where response_mask is False must not count, whatever they hold: {detail}.",
                    relation=f"padding-{level}", compare=self.padding_relation(()).compare) for level in LEVELS],
            Check("matches-reference", "loss and weights match the reference on random batches",
                  "Your {field}{at} differs from the reference: expected {expected}, got {got}.", fields=("loss", kept)),
            *self.gradient_checks(),
        ]
        return out

    def grad_hint(self, name: str) -> str:
        if name == "log_prob":
            return (" The correction weight multiplies PPO's per-token gradient and is itself a constant; the loss is "
                    "divided by the number of tokens kept.")
        return ""

    def axes(self, framework: str) -> list[Axis]:
        out = []
        for level in LEVELS:
            for mode in MODES:
                applies = (lambda lv, md: lambda ex: _level(ex) == lv and _mode(ex) == md)(level, mode)
                tag = f"{level}-{mode}"
                out.append(Axis(f"weights-{tag}", f"the weights ({level}, {mode})", self.compared("weights"), applies,
                                group=f"weights-{tag}"))
                out.append(Axis(f"loss-{tag}", f"the loss ({level}, {mode})", "loss", applies, group=f"loss-{tag}"))
                if framework == "torch":
                    out.append(Axis(f"grad-{tag}", f"the gradient ({level}, {mode})", "grad:log_prob", applies,
                                    group=f"loss-{tag}"))
        out.append(Axis("weights-padding", "the weights on padded positions", self.on_padding("weights"),
                        group="weights-padding"))
        if framework == "torch":
            out += [Axis(f"nograd:{n}", f"the gradient reaching {n}", f"nograd:{n}", group=f"nograd:{n}")
                    for n in self.constants]
        return out


def _finite_outputs(ex: Example, got: dict) -> str | None:
    loss = float(np.asarray(got["loss"]))
    if not np.isfinite(loss):
        return f"on {ex.label} your loss is {loss}"
    w = np.asarray(got["weights on valid tokens"])
    if not np.isfinite(w).all():
        b, t = first_where(~np.isfinite(w))
        return f"on {ex.label} your weight at row {b}, t = {t} is {w[b, t]}"
    return None


SPEC = RolloutCorrectionSpec()
