"""Checker spec of the `cispo-loss` drill (PyTorch): cispo_loss(log_prob, old_log_prob, advantages,
response_mask, eps_high=0.28, eps_low=None) -> (loss, weights). CISPO (MiniMax-M1 §3.1): REINFORCE on
log pi weighted by the importance ratio clipped to at most 1 + eps_high (and, when eps_low is given, at
least 1 - eps_low) and detached, averaged over every valid token of the batch. Checked on the loss, on
the weights, and above all on the gradient: -w A / N on every valid token, none dropped."""
from __future__ import annotations

import numpy as np

from checker.reference.cispo import cispo_loss
from checker.specs.base import Axis, Check, Example, contract_check, first_where
from checker.specs.llm_outputs import LlmOutputsSpec, finite_padding, right_padded
from checker.specs.losses import draw_array, grid
from checker.specs.token_batches import as_float32, draw_lengths, maybe_fill_padding

FLOATS = ("log_prob", "old_log_prob", "advantages")
WORKED = "edge: worked example"
WORKED_LOGP = [[-1.0, -0.5, -2.0], [-0.7, -1.2, 0.0]]
WORKED_OLD = [[-1.4, -0.5, -1.5], [-0.7, -1.0, 0.0]]
WORKED_ADV = [[1.0, 1.0, 1.0], [-0.5, -0.5, 0.0]]
WORKED_LENGTHS = [3, 2]


def _ok(ex: Example) -> bool:
    return ex.invalid is None


def _tame(ex: Example) -> bool:
    return _ok(ex) and finite_padding(ex, FLOATS)


class CispoSpec(LlmOutputsSpec):
    drill_id = "cispo-loss"
    function = "cispo_loss"
    positional = ("log_prob", "old_log_prob", "advantages", "response_mask")
    hyper_defaults = {"eps_high": 0.28, "eps_low": None}
    roles = {"mask": ("response_mask",), "nonfinite_padding": "padded log-probs and advantages may hold NaN and inf",
             # old_log_prob reaches the loss only through a detached ratio: no place for its gradient
             "advantages": ("advantages",)}
    trainable = ("log_prob",)
    constants = ("old_log_prob", "advantages")
    outputs = (("loss", "scalar"), ("weights", "bt"))

    def strategy(self, framework: str):
        from hypothesis import strategies as st

        @st.composite
        def draw(draw):
            B, T = draw(st.integers(1, 3)), draw(st.integers(1, 6))
            mask = right_padded(draw_lengths(draw, B, T), T)
            old = draw_array(draw, grid(-3.0, -0.125, 0.125), (B, T))
            lr = draw_array(draw, grid(-0.75, 0.75, 0.0625), (B, T))
            adv = draw_array(draw, grid(-2.0, 2.0, 0.25), (B, T))
            arrays = {"log_prob": old + lr, "old_log_prob": old, "advantages": adv, "response_mask": mask}
            arrays = maybe_fill_padding(draw, arrays, mask, FLOATS)
            if draw(st.integers(0, 4)) == 0:
                arrays = as_float32(arrays, FLOATS)
            hyper = {}
            high = draw(st.sampled_from([None, 0.28, 0.2, 1.0, 4.0]))
            if high is not None:
                hyper["eps_high"] = high
            low = draw(st.sampled_from([None, None, 0.2, 0.5]))
            if low is not None:
                hyper["eps_low"] = low
            return Example(arrays, hyper)
        return draw()

    def edge_cases(self, framework: str) -> list[Example]:
        f = lambda rows, dtype=np.float64: np.asarray(rows, dtype=dtype)  # noqa: E731
        nan, inf = np.nan, np.inf
        worked = {"log_prob": f(WORKED_LOGP), "old_log_prob": f(WORKED_OLD), "advantages": f(WORKED_ADV),
                  "response_mask": right_padded(WORKED_LENGTHS, 3)}
        poisoned = {"log_prob": f([[-1.0, -0.5, -2.0], [-0.7, -1.2, nan]]),
                    "old_log_prob": f([[-1.4, -0.5, -1.5], [-0.7, -1.0, -inf]]),
                    "advantages": f([[1.0, 1.0, 1.0], [-0.5, -0.5, inf]]), "response_mask": right_padded([3, 2], 3)}
        far = {"log_prob": f([[0.0, -3.0, -0.1, -1.0], [-2.0, -0.05, -5.0, -4.0]]),
               "old_log_prob": f([[-1.5, -0.5, -0.1, -1.0], [-0.2, -0.05, -6.0, -0.5]]),
               "advantages": f([[1.0, -2.0, 0.5, 1.5], [-1.0, 2.0, 1.0, -0.5]]), "response_mask": right_padded([4, 3], 4)}
        rng = np.random.default_rng(7)
        mask = right_padded([64, 1, 17], 64)
        o = np.round(rng.uniform(-3, -0.5, (3, 64)) * 8) / 8
        skew = {"log_prob": np.where(mask, o + np.round(rng.uniform(-0.6, 0.6, (3, 64)) * 16) / 16, -inf),
                "old_log_prob": np.where(mask, o, -inf),
                "advantages": np.where(mask, np.round(rng.normal(size=(3, 64)) * 4) / 4, nan), "response_mask": mask}
        at_cap = {"log_prob": f([[np.log(1.28), np.log(0.5)]]), "old_log_prob": f([[0.0, 0.0]]),
                  "advantages": f([[1.0, -1.0]]), "response_mask": right_padded([2], 2)}
        ok = [
            Example(worked, {}, WORKED),
            Example(worked, {"eps_low": 0.2}, f"{WORKED} with eps_low = 0.2"),
            Example(poisoned, {}, "edge: NaN, -inf and inf in the padding"),
            Example(far, {}, "edge: ratios far outside the band on both sides"),
            Example(far, {"eps_high": 0.2, "eps_low": 0.2}, "edge: ratios far outside a (0.2, 0.2) band"),
            Example(far, {"eps_high": 4.0}, "edge: ratios far outside the band, eps_high = 4"),
            Example(skew, {}, "edge: rows of 64, 1 and 17 tokens, -inf padding"),
            Example(skew, {"eps_low": 0.5}, "edge: rows of 64, 1 and 17 tokens, eps_low = 0.5"),
            Example(at_cap, {}, "edge: one ratio exactly 1.28, one 0.5"),
            Example(as_float32(far, FLOATS), {},
                    "edge: float32 inputs"),
            Example({"log_prob": f([[-0.3]]), "old_log_prob": f([[-1.0]]), "advantages": f([[2.0]]),
                     "response_mask": right_padded([1], 1)}, {}, "edge: one token, ratio e^0.7"),
        ]
        ok += self.defaults_pair(far, "ratios outside the band")
        ok += self.padding_pair(far, {"eps_low": 0.2}, "two rows of 4 and 3 tokens", FLOATS)
        bad = [("eps_high = 0", {"eps_high": 0.0}), ("eps_high = -0.2", {"eps_high": -0.2}),
               ("eps_low = 0", {"eps_low": 0.0}), ("eps_low = 1.5 (the floor 1 - eps_low must stay above -1)",
                                                  {"eps_low": 1.5})]
        return ok + [Example(worked, h, f"contract: {what}", invalid=what) for what, h in bad]

    def reference_outputs(self, t: dict, hyper: dict) -> dict:
        if not hyper["eps_high"] > 0 or (hyper["eps_low"] is not None and not 0 < hyper["eps_low"] <= 1):
            raise ValueError("eps_high must be > 0 and eps_low in (0, 1]")
        loss, w = cispo_loss(t["log_prob"], t["old_log_prob"], t["advantages"], t["response_mask"],
                             hyper["eps_high"], hyper["eps_low"])
        return {"loss": loss, "weights": w}

    def checks(self) -> list[Check]:
        return [
            contract_check("eps_high <= 0 or eps_low outside (0, 1] raises ValueError"),
            Check("worked-example", "reproduces the prompt's worked example",
                  "On the prompt's worked example ({label}) your {field}{at} is {got}; it must be {expected}.",
                  applies=lambda ex: ex.label.startswith(WORKED), fields=("loss", self.compared("weights"))),
            Check("weights", "each weight is the ratio clipped to the band, on valid tokens",
                  "The weight of a valid token is min(r, 1 + eps_high), also floored at 1 - eps_low when eps_low "
                  "is given, with r = exp(log_prob - old_log_prob); yours{at} is {got}, expected {expected}.",
                  applies=_tame, fields=(self.compared("weights"),)),
            self.padding_zero_check(),
            Check("loss", "the loss is -sum(w A log_prob) over valid tokens / their number",
                  "The loss is -(1 / N) sum over the N valid tokens of the batch of w A log_prob; expected "
                  "{expected}, got {got}.", applies=_tame, fields=("loss",)),
            Check("padding-nonfinite", "NaN and inf in padding reach neither outputs nor gradient",
                  "Padded slots hold NaN or inf, yet {detail}; select with torch.where before multiplying.",
                  applies=lambda ex: _ok(ex) and not finite_padding(ex, FLOATS), custom=_finite_outputs),
            self.defaults_relation("eps_high=0.28, eps_low=None"),
            self.padding_relation(("loss", "weights")),
            Check("matches-reference", "loss and weights match the reference on random batches",
                  "Your {field}{at} differs from the reference: expected {expected}, got {got}.",
                  fields=("loss", self.compared("weights"))),
            *self.gradient_checks(),
        ]

    def kinks(self, ex: Example) -> dict:
        """Ratios on the band's edges: a clamp or a min there may take either side (every subgradient is
        right); the gradient is still compared everywhere else."""
        hi = 1.0 + ex.hyper.get("eps_high", 0.28)
        low = ex.hyper.get("eps_low")
        with np.errstate(all="ignore"):
            r = np.exp(np.asarray(ex.arrays["log_prob"], np.float64) - np.asarray(ex.arrays["old_log_prob"], np.float64))
        edge = np.abs(r - hi) <= 1e-9
        if low is not None:
            edge |= np.abs(r - (1.0 - low)) <= 1e-9
        return {"log_prob": edge & ex.arrays["response_mask"]}

    def grad_hint(self, name: str) -> str:
        return (" With the weight detached, d loss / d log_prob is -w A / N on every valid token (N valid tokens in "
                "the batch), 0 on padding.")

    def axes(self, framework: str) -> list[Axis]:
        one_row = lambda ex: ex.arrays["response_mask"].shape[0] == 1  # noqa: E731
        return (self.output_axes(framework) + self.gradient_axes(framework)
                + [Axis("loss-one-row", "the loss on one-row batches", "loss", one_row, group="loss"),
                   Axis("grad-one-row", "the gradient on one-row batches", "grad:log_prob", one_row, group="grad:log_prob")])


def _finite_outputs(ex: Example, got: dict) -> str | None:
    loss = float(np.asarray(got["loss"]))
    if not np.isfinite(loss):
        return f"on {ex.label} your loss is {loss}"
    w = np.asarray(got["weights on valid tokens"])
    if not np.isfinite(w).all():
        b, t = first_where(~np.isfinite(w))
        return f"on {ex.label} your weight at row {b}, t = {t} is {w[b, t]}"
    g = got.get("grad:log_prob")
    if g is not None and not np.isfinite(g).all():
        b, t = first_where(~np.isfinite(g))
        return f"on {ex.label} the gradient w.r.t. log_prob is {g[b, t]} at row {b}, t = {t}"
    return None


SPEC = CispoSpec()
