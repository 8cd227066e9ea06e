"""Checker spec of the `gspo-loss` drill: gspo_loss(log_prob, old_log_prob, advantages, response_mask,
clip_low=3e-4, clip_high=4e-4) -> (loss, seq_ratio). GSPO (Zheng et al. 2025): the sequence ratio
s_i = exp(mean over the response's valid tokens of log_prob - old_log_prob), clipped in
[1 - clip_low, 1 + clip_high]; per token max(-A s, -A clip(s)) with the GSPO-token ratio (the value of
s_i, each token's own gradient), each response's token mean, then the mean over responses. Batches with
one advantage per response (GSPO) and with per-token advantages (GSPO-token) are separate classes of
examples, and so are their losses and gradients in the diagnosis."""
from __future__ import annotations

import numpy as np

from checker.reference.sequence_ratio import gspo_loss
from checker.specs.base import Axis, Check, Example, contract_check, first_where
from checker.specs.llm_outputs import LlmOutputsSpec, finite_padding, right_padded
from checker.specs.losses import draw_array, grid
from checker.specs.token_batches import as_float32, draw_lengths, maybe_fill_padding

FLOATS = ("log_prob", "old_log_prob", "advantages")
WORKED = "edge: worked example"
WORKED_OLD = [[-1.0, -2.0, -0.5], [-1.5, -0.25, 0.0]]
WORKED_LR = [[2e-4, -4e-4, 5e-4], [1e-3, 5e-4, 0.0]]
WORKED_ADV = [[1.0, 1.0, 1.0], [-0.5, -0.5, 0.0]]


def _ok(ex: Example) -> bool:
    return ex.invalid is None


def _tame(ex: Example) -> bool:
    return _ok(ex) and finite_padding(ex, FLOATS)


def _row_advantages(ex: Example) -> bool:
    """One advantage per response: every valid token of a row has the same A (plain GSPO)."""
    m, a = ex.arrays["response_mask"], ex.arrays["advantages"]
    for b in range(m.shape[0]):
        v = a[b][m[b]]
        if v.size and not (v == v[0]).all():
            return False
    return True


def _seq_ratio(ex: Example) -> np.ndarray:
    m = ex.arrays["response_mask"]
    with np.errstate(all="ignore"):
        lr = np.where(m, np.asarray(ex.arrays["log_prob"], np.float64) - np.asarray(ex.arrays["old_log_prob"], np.float64),
                      0.0)
        return np.exp(lr.sum(-1) / np.maximum(m.sum(-1), 1))


class GspoSpec(LlmOutputsSpec):
    drill_id = "gspo-loss"
    function = "gspo_loss"
    positional = ("log_prob", "old_log_prob", "advantages", "response_mask")
    hyper_defaults = {"clip_low": 3e-4, "clip_high": 4e-4}
    roles = {"mask": ("response_mask",), "nonfinite_padding": "padded log-probs and advantages may hold NaN and inf",
             # old_log_prob reaches the loss only through a detached ratio: no place for its gradient
             "advantages": ("advantages",)}
    trainable = ("log_prob",)
    constants = ("old_log_prob", "advantages")
    outputs = (("loss", "scalar"), ("seq_ratio", "b"))

    def strategy(self, framework: str):
        from hypothesis import strategies as st

        @st.composite
        def draw(draw):
            B, T = draw(st.integers(1, 3)), draw(st.integers(1, 6))
            mask = right_padded(draw_lengths(draw, B, T), T)
            old = draw_array(draw, grid(-3.0, -0.125, 0.125), (B, T))
            scales = np.array([draw(st.sampled_from([1e-4, 1e-4, 1e-3, 0.25])) for _ in range(B)])[:, None]
            lr = draw_array(draw, grid(-4.0, 4.0, 1.0), (B, T)) * scales
            if draw(st.booleans()):
                adv = np.repeat(draw_array(draw, grid(-2.0, 2.0, 0.25), (B, 1)), T, axis=1)
            else:
                adv = draw_array(draw, grid(-2.0, 2.0, 0.25), (B, T))
            arrays = {"log_prob": old + lr, "old_log_prob": old, "advantages": adv, "response_mask": mask}
            arrays = maybe_fill_padding(draw, arrays, mask, FLOATS)
            hyper = {}
            band = draw(st.sampled_from([None, None, (0.2, 0.28), (3e-4, 4e-4), (1e-3, 1e-3)]))
            if band is not None:
                hyper = {"clip_low": band[0], "clip_high": band[1]}
            return Example(arrays, hyper)
        return draw()

    def edge_cases(self, framework: str) -> list[Example]:
        f = lambda rows, dtype=np.float64: np.asarray(rows, dtype=dtype)  # noqa: E731
        nan, inf = np.nan, np.inf
        old = f(WORKED_OLD)
        mask = right_padded([3, 2], 3)
        worked = {"log_prob": old + f(WORKED_LR), "old_log_prob": old, "advantages": f(WORKED_ADV), "response_mask": mask}
        token_adv = dict(worked, advantages=f([[1.0, -1.0, 2.0], [-0.5, 1.5, 0.0]]))
        wide = {"log_prob": f([[-0.5, -1.0, -2.0, -0.1], [-2.0, -0.5, -1.5, -3.0]]),
                "old_log_prob": f([[-1.0, -1.0, -1.5, -0.6], [-1.0, -0.5, -1.0, -1.0]]),
                "advantages": f([[1.0, 1.0, 1.0, 1.0], [-1.0, -1.0, -1.0, -1.0]]), "response_mask": right_padded([4, 3], 4)}
        rng = np.random.default_rng(41)
        lmask = right_padded([64, 1, 17], 64)
        lold = np.round(rng.uniform(-3, -0.5, (3, 64)) * 8) / 8
        long = {"log_prob": np.where(lmask, lold + rng.integers(-3, 4, (3, 64)) * 1e-4, -inf),
                "old_log_prob": np.where(lmask, lold, -inf),
                "advantages": np.where(lmask, np.repeat([[1.0], [-2.0], [0.5]], 64, axis=1), nan), "response_mask": lmask}
        ok = [
            Example(worked, {}, WORKED),
            Example(token_adv, {}, f"{WORKED} with per-token advantages"),
            Example(wide, {"clip_low": 0.2, "clip_high": 0.28}, "edge: log-ratios of 0.5 and -1.0 with a (0.2, 0.28) band"),
            Example(wide, {}, "edge: log-ratios of 0.5 and -1.0, far outside the default band"),
            Example(dict(wide, advantages=f([[1.0, -2.0, 0.5, 1.0], [-1.0, 2.0, 1.0, -1.0]])),
                    {"clip_low": 0.2, "clip_high": 0.28}, "edge: per-token advantages, a (0.2, 0.28) band"),
            Example(long, {}, "edge: rows of 64, 1 and 17 tokens, -inf padding"),
            Example({"log_prob": f([[-0.9997]]), "old_log_prob": f([[-1.0]]), "advantages": f([[1.0]]),
                     "response_mask": right_padded([1], 1)}, {}, "edge: one token, log-ratio 3e-4"),
            Example(as_float32(wide, FLOATS),
                    {"clip_low": 0.2, "clip_high": 0.28}, "edge: float32 inputs"),
        ]
        ok += self.defaults_pair(worked, "the worked example")
        ok += self.padding_pair(wide, {"clip_low": 0.2, "clip_high": 0.28}, "rows of 4 and 3 tokens", FLOATS)
        bad = [("clip_low = 0", {"clip_low": 0.0}), ("clip_high = -0.1", {"clip_high": -0.1}),
               ("clip_low = 1 (the floor 1 - clip_low must stay above 0)", {"clip_low": 1.0})]
        return ok + [Example(worked, h, f"contract: {what}", invalid=what) for what, h in bad]

    def reference_outputs(self, t: dict, hyper: dict) -> dict:
        lo, hi = hyper["clip_low"], hyper["clip_high"]
        if not (0 < lo < 1 and hi > 0):
            raise ValueError("clip_low must be in (0, 1) and clip_high > 0")
        loss, s = gspo_loss(t["log_prob"], t["old_log_prob"], t["advantages"], t["response_mask"], lo, hi)
        return {"loss": loss, "seq_ratio": s}

    def kinks(self, ex: Example) -> dict:
        """Rows whose ratio sits on the band's edge (or within float noise of it): every subgradient is right."""
        s = _seq_ratio(ex)
        lo, hi = 1 - ex.hyper.get("clip_low", 3e-4), 1 + ex.hyper.get("clip_high", 4e-4)
        edge = (np.abs(s - lo) <= 1e-6) | (np.abs(s - hi) <= 1e-6)
        return {"log_prob": np.broadcast_to(edge[:, None], ex.arrays["response_mask"].shape) & ex.arrays["response_mask"]}

    def checks(self) -> list[Check]:
        return [
            contract_check("clip_low outside (0, 1) or clip_high <= 0 raises ValueError"),
            Check("worked-example", "reproduces the prompt's worked example",
                  "On the prompt's worked example ({label}) your {field}{at} is {got}; it must be {expected}.",
                  applies=lambda ex: ex.label.startswith(WORKED), fields=("loss", "seq_ratio")),
            Check("sequence-ratio", "s_i is the geometric mean of the response's token ratios",
                  "s_i = exp(mean over the valid tokens of response i of log_prob - old_log_prob); yours{at} is "
                  "{got}, expected {expected}.", applies=_tame, fields=("seq_ratio",)),
            Check("sequence-loss", "with one advantage per response, the loss is GSPO's clipped sequence objective",
                  "With one advantage per response the loss is the mean over responses of max(-A s_i, -A clip(s_i, "
                  "1 - clip_low, 1 + clip_high)); expected {expected}, got {got}.",
                  applies=lambda ex: _tame(ex) and _row_advantages(ex), fields=("loss",)),
            Check("token-advantage-loss", "with per-token advantages, each token uses s_i with its own A",
                  "With per-token advantages (GSPO-token) each valid token contributes max(-A_t s_i, -A_t clip(s_i)), "
                  "averaged over its response, then over responses; expected {expected}, got {got}.",
                  applies=lambda ex: _tame(ex) and not _row_advantages(ex), fields=("loss",)),
            Check("padding-nonfinite", "NaN and inf in padding reach neither outputs nor gradient",
                  "Padded slots hold NaN or inf, yet {detail}; select with where(mask, x, 0) before summing.",
                  applies=lambda ex: _ok(ex) and not finite_padding(ex, FLOATS), custom=_finite_outputs),
            self.defaults_relation("clip_low=3e-4, clip_high=4e-4"),
            self.padding_relation(("loss", "seq_ratio")),
            Check("matches-reference", "loss and sequence ratios match the reference on random batches",
                  "Your {field}{at} differs from the reference: expected {expected}, got {got}.",
                  fields=("loss", "seq_ratio")),
            *self.gradient_checks(),
        ]

    def grad_hint(self, name: str) -> str:
        return (" A valid token of response i gets -A_t s_i / (|y_i| B) where its clipped branch is not the one "
                "taken, 0 where it is, and 0 on padding.")

    def axes(self, framework: str) -> list[Axis]:
        row = _row_advantages
        token = lambda ex: not _row_advantages(ex)  # noqa: E731
        one = lambda ex: ex.arrays["response_mask"].shape[0] == 1  # noqa: E731
        out = [Axis("seq_ratio", "the sequence ratios", "seq_ratio", group="seq_ratio"),
               Axis("loss-row", "the loss with one advantage per response", "loss", row, group="row"),
               Axis("loss-token", "the loss with per-token advantages", "loss", token, group="token"),
               Axis("loss-one-row", "the loss of one-response batches", "loss", one, group="one-row")]
        if framework == "torch":
            out += [Axis("grad-row", "the gradient with one advantage per response", "grad:log_prob", row, group="row"),
                    Axis("grad-token", "the gradient with per-token advantages", "grad:log_prob", token, group="token"),
                    *[Axis(f"nograd:{n}", f"the gradient reaching {n}", f"nograd:{n}", group=f"nograd:{n}")
                      for n in self.constants]]
        return out


def _finite_outputs(ex: Example, got: dict) -> str | None:
    loss = float(np.asarray(got["loss"]))
    if not np.isfinite(loss):
        return f"on {ex.label} your loss is {loss}"
    s = np.asarray(got["seq_ratio"])
    if not np.isfinite(s).all():
        (b,) = first_where(~np.isfinite(s))
        return f"on {ex.label} your seq_ratio of row {b} is {s[b]}"
    return None


SPEC = GspoSpec()
