"""Checker spec of the `token-logprobs` drill (NumPy or PyTorch; the gradient is checked in PyTorch
only): token_logprobs(logits, input_ids, response_mask)
-> (log_probs, entropy), the per-token log-probs of the response tokens and the entropy of the same
distributions, with the one-position shift of causal language models.

logits [B, L, V] (float64 or float32), input_ids [B, L] (int64), response_mask [B, L] (bool, True on
the response tokens: False on the prompt and on right padding). Outputs [B, L - 1]: position t is the
distribution the logits at t give to the token at t + 1; 0 where response_mask[:, t + 1] is False.
"""
from __future__ import annotations

import numpy as np
import torch

from checker.reference.tokens import token_logprobs
from checker.sandbox.model import Call
from checker.specs.base import Check, Example, Expected, close, first_where
from checker.specs.losses import draw_array, grid
from checker.specs.token_base import TokenSpec

LP, ENT = TokenSpec.on_valid("log_probs"), TokenSpec.on_valid("entropy")
WORKED_LOGITS = [
    [[1.0, 0.0, 0.0], [0.0, 2.0, 0.0], [0.0, 0.0, 0.0], [3.0, 0.0, 0.0]],
    [[0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [2.0, 1.0, 0.0], [0.0, 0.0, 0.0]],
]
WORKED_IDS = [[2, 0, 1, 0], [1, 2, 0, 0]]
WORKED_MASK = [[False, True, True, False], [False, True, False, False]]


def _valid(ex: Example) -> np.ndarray:
    return ex.arrays["response_mask"][:, 1:]


def _vocab(ex: Example) -> int:
    return ex.arrays["logits"].shape[-1]


def _normal(ex: Example) -> bool:
    """An ordinary example: finite logits of moderate size everywhere."""
    lg = ex.arrays["logits"]
    return bool(np.isfinite(lg).all() and np.abs(lg).max() <= 50)


def _unused_logits(ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """[B, L] True at positions whose logits score nothing (the next token is not a response token)."""
    unused = np.ones(mask.shape, dtype=bool)
    unused[:, :-1] = ~mask[:, 1:]
    return unused


def _grad_checked(ex: Example) -> bool:
    return ex.invalid is None and bool(np.isfinite(ex.arrays["logits"]).all())


SHIFTED = "edge: logits shifted by 1000 (row 1 = row 0 + 1000)"
# A second shift, so that exponentiating raw logits (overflow past ~709) shows on two examples, not one.
SHIFTED_800 = "edge: logits shifted by 800 (row 1 = row 0 + 800)"
SHIFTS = {SHIFTED: 1000.0, SHIFTED_800: 800.0}


def _shift_invariant(ex: Example, got: dict) -> str | None:
    """The answer compared with itself: adding a constant to a position's logits changes nothing."""
    for name in ("log_probs", "entropy"):
        a, b = got[name][0], got[name][1]
        ok = close(a, b)
        if not ok.all():
            t = first_where(~ok)[0]
            return (f"your {name} at t = {t} is {a[t]:.6g} for row 0 but {b[t]:.6g} for row 1, whose logits are "
                    f"row 0's plus {SHIFTS.get(ex.label, 1000.0):g}")
    return None


def _logprob_range(ex: Example, got: dict) -> str | None:
    lp, valid = got["log_probs"], _valid(ex)
    bad = valid & ~(np.isfinite(lp) & (lp <= 1e-9))
    if bad.any():
        b, t = first_where(bad)
        return f"at row {b}, t = {t} your log-prob is {lp[b, t]:.6g}"
    return None


def _entropy_range(ex: Example, got: dict) -> str | None:
    h, valid = got["entropy"], _valid(ex)
    top = np.log(_vocab(ex)) + 1e-6
    bad = valid & ~(np.isfinite(h) & (h >= -1e-9) & (h <= top))
    if bad.any():
        b, t = first_where(bad)
        return f"at row {b}, t = {t} your entropy is {h[b, t]:.6g} (log V = {top:.6g})"
    return None


class TokenLogprobsSpec(TokenSpec):
    drill_id = "token-logprobs"
    function = "token_logprobs"
    positional = ("logits", "input_ids", "response_mask")
    roles = {
        "mask": ("response_mask",),
        "padded_outputs": True,
        "nonfinite_padding": "unused logits may hold NaN and inf",
        "probability_underflow": True,
    }
    hyper_defaults: dict = {}
    outputs = (("log_probs", "bt"), ("entropy", "bt"))
    # The actor's loss back-propagates through these log-probs: the sum of log_probs must have the
    # gradient onehot(next token) - softmax(logits) w.r.t. the logits at every valid position (and 0
    # elsewhere). Asked only where every logit is finite: through NaN logits even a right answer's
    # gradient is NaN (torch.where passes 0 * NaN back).
    trainable = ("logits",)
    grad_of = "0"

    def out_shape(self, ex: Example) -> tuple:
        B, L = ex.arrays["input_ids"].shape
        return (B, L - 1)

    def valid(self, ex: Example) -> np.ndarray:
        return _valid(ex)

    def valid_input_mask(self, arrays: dict, name: str) -> np.ndarray:
        """The logits that score a response token (position t scores the token at t + 1)."""
        if name == "logits":
            return ~_unused_logits(arrays["input_ids"], arrays["response_mask"])
        return arrays[self.mask_name]

    def underflow(self, ex: Example, framework: str) -> dict:
        """Where a log taken of softmax probabilities loses the value: a log-prob below -10 (an epsilon or a
        clip floors it), its position's gradient, and the entropy of positions where some probability is
        below e^-80 (0 * log 0 is NaN once it underflows in float32)."""
        if ex.invalid is not None:
            return {}
        lg = np.nan_to_num(ex.arrays["logits"].astype(np.float64)[:, :-1], nan=0.0, posinf=0.0, neginf=0.0)
        z = lg - lg.max(-1, keepdims=True)
        logp_all = z - np.log(np.exp(z).sum(-1, keepdims=True))
        picked = np.take_along_axis(logp_all, ex.arrays["input_ids"][:, 1:, None], -1)[..., 0]
        valid = _valid(ex)
        low = valid & (picked < -10.0)
        tiny = valid & (logp_all.min(-1) < -80.0)
        out = {}
        if low.any():
            out.update({"log_probs": low, LP: low})
        if tiny.any():
            out.update({"entropy": tiny, ENT: tiny})
        if (low | tiny).any():  # the log of every probability is in the graph: 0 / 0 where one underflows
            g = np.zeros(ex.arrays["logits"].shape, dtype=bool)
            g[:, :-1] = (low | tiny)[..., None]
            out["grad:logits"] = g
        return out

    @staticmethod
    def make(logits, ids, mask, label: str, dtype=np.float64, garbage: str | None = None) -> Example:
        lg = np.asarray(logits, dtype=np.float64)
        ids = np.asarray(ids, dtype=np.int64)
        mask = np.asarray(mask, dtype=bool)
        if garbage is not None:
            lg = _poison(lg, _unused_logits(ids, mask), garbage)
        return Example({"logits": lg.astype(dtype), "input_ids": ids, "response_mask": mask}, {}, f"edge: {label}")

    # ---- inputs -------------------------------------------------------------------------------
    def strategy(self, framework: str):
        from hypothesis import strategies as st

        @st.composite
        def draw(draw):
            B, L, V = draw(st.integers(1, 3)), draw(st.integers(2, 8)), draw(st.integers(2, 6))
            logits = draw_array(draw, grid(-4.0, 4.0, 0.25), (B, L, V))
            ids = np.array(draw(st.lists(st.integers(0, V - 1), min_size=B * L, max_size=B * L)),
                           dtype=np.int64).reshape(B, L)
            mask = np.zeros((B, L), dtype=bool)
            for b in range(B):
                prompt = draw(st.integers(1, L - 1))
                n = draw(st.integers(1, L - prompt))
                mask[b, prompt:prompt + n] = True
            garbage = draw(st.sampled_from(["none", "none", "none", "nan", "inf", "huge"]))
            if garbage != "none":
                logits = _poison(logits, _unused_logits(ids, mask), garbage)
            if draw(st.integers(0, 3)) == 0:
                logits = logits.astype(np.float32)
            return Example({"logits": logits, "input_ids": ids, "response_mask": mask}, {})
        return draw()

    def edge_cases(self, framework: str) -> list[Example]:
        rng = np.random.default_rng(11)
        make = self.make
        cases = [make(WORKED_LOGITS, WORKED_IDS, WORKED_MASK, "worked example")]
        # Rows of very different lengths: a 1-token prompt with a 10-token response, and a 10-token
        # prompt with a single response token.
        L, V = 12, 5
        logits = np.round(rng.normal(0, 2, (2, L, V)), 2)
        ids = rng.integers(0, V, (2, L))
        mask = np.zeros((2, L), dtype=bool)
        mask[0, 1:11] = True
        mask[1, 10:11] = True
        cases.append(make(logits, ids, mask, "rows of very different lengths"))
        single = np.zeros((1, 3), dtype=bool)
        single[0, 2] = True
        cases.append(make([[[0.5, -1.0, 2.0], [1.0, 0.0, -2.0], [9.0, 9.0, 9.0]]], [[1, 0, 2]], single,
                          "a single valid token"))
        cases.append(make(logits, ids, mask, "nan padding", garbage="nan"))
        cases.append(make(logits, ids, mask, "inf padding", garbage="inf"))
        # the padding relation: the same batch with its unused logits as given and poisoned
        for role, kind in (("as-given", None), ("nan", "nan"), ("inf", "inf"), ("huge", "huge")):
            e = make(logits, ids, mask, f"rows of very different lengths, {role} padding" if kind else
                     "rows of very different lengths, padding as given", garbage=kind)
            cases.append(Example(e.arrays, e.hyper, e.label, relation=("padding", role)))
        # Large logits: the chosen token sits 800 below the best one, so softmax underflows to exactly
        # 0 (even in float64) and log(softmax) is -inf, while log_softmax gives about -800.
        big = np.array([[[0.0, -800.0, -30.0], [500.0, 0.0, 1.0], [-700.0, 0.0, 100.0], [0.0, 0.0, 0.0]]])
        cases.append(make(big, [[0, 1, 0, 2]], [[False, True, True, True]], "large logits"))
        lg32 = np.array([[[20.0, -90.0, 0.0, 5.0], [0.0, 60.0, -60.0, 1.0], [3.0, 2.0, 1.0, 0.0]]])
        cases.append(make(lg32, [[0, 1, 2]], [[False, True, True]], "float32 logits", dtype=np.float32))
        Vbig = 32000
        vocab = np.round(rng.normal(0, 3, (2, 5, Vbig)), 3)
        vids = rng.integers(0, Vbig, (2, 5))
        vmask = np.array([[False, True, True, True, True], [False, False, True, False, False]])
        cases.append(make(vocab, vids, vmask, "large vocabulary (V = 32000, float32)", dtype=np.float32))
        # Row 1 is row 0 with 1000 added to every logit: log_softmax cannot tell them apart.
        shift_logits = np.round(rng.normal(0, 2, (1, 5, 4)), 2)
        shift_ids = rng.integers(0, 4, (1, 5))
        shift_mask = np.array([[False, True, True, True, False]])
        cases.append(make(np.concatenate([shift_logits, shift_logits + 1000.0]), np.concatenate([shift_ids] * 2),
                          np.concatenate([shift_mask] * 2), "logits shifted by 1000 (row 1 = row 0 + 1000)"))
        shift_logits = np.round(rng.normal(0, 2, (1, 4, 5)), 2)
        shift_ids = rng.integers(0, 5, (1, 4))
        shift_mask = np.array([[False, True, True, True]])
        cases.append(make(np.concatenate([shift_logits, shift_logits + 800.0]), np.concatenate([shift_ids] * 2),
                          np.concatenate([shift_mask] * 2), "logits shifted by 800 (row 1 = row 0 + 800)"))
        prompt = np.zeros((1, 6), dtype=bool)
        prompt[0, 3:5] = True
        cases.append(make(np.round(rng.normal(0, 1.5, (1, 6, 4)), 2), [[3, 1, 2, 0, 3, 1]], prompt,
                          "a three-token prompt before the response"))
        return cases

    def to_call(self, ex: Example, framework: str):
        call = super().to_call(ex, framework)
        if call.grad_of is not None and not _grad_checked(ex):
            return Call(call.args, call.kwargs)
        return call

    # ---- reference ----------------------------------------------------------------------------
    def reference_outputs(self, ex: Example) -> dict:
        lp, h = token_logprobs(ex.arrays["logits"], ex.arrays["input_ids"], ex.arrays["response_mask"])
        return {"log_probs": lp.numpy(), "entropy": h.numpy()}

    def reference(self, ex: Example, framework: str) -> Expected:
        expected = super().reference(ex, framework)
        if framework == "torch" and _grad_checked(ex):
            logits = torch.tensor(ex.arrays["logits"], dtype=torch.float64, requires_grad=True)
            lp, _ = token_logprobs(logits, ex.arrays["input_ids"], ex.arrays["response_mask"])
            lp.sum().backward()
            expected.grads = {"logits": logits.grad.numpy().copy()}
        return expected

    def checks(self) -> list[Check]:
        return [
            Check("worked-example", "reproduces the prompt's worked example",
                  "On the prompt's worked example your {field} is {got}{at}; it must be {expected}.",
                  applies=lambda ex: ex.label == "edge: worked example", fields=("log_probs", "entropy")),
            Check("log-probs-shifted", "log_probs[:, t] is log_softmax(logits[:, t])[input_ids[:, t + 1]]",
                  "The logits at position t score the token at t + 1: log_probs[:, t] must be "
                  "log_softmax(logits[:, t])[input_ids[:, t + 1]]. Yours differs{at}: expected {expected}, "
                  "got {got}.", applies=_normal, fields=(LP,)),
            Check("entropy", "entropy[:, t] is the entropy of softmax(logits[:, t])",
                  "entropy[:, t] must be -sum_v p log p of softmax(logits[:, t]), the same distribution that "
                  "scores token t + 1. Yours differs{at}: expected {expected}, got {got}.",
                  applies=_normal, fields=(ENT,)),
            Check("shift-invariance", "adding a constant to a position's logits changes nothing",
                  "softmax(x + c) = softmax(x): log-probs and entropy must not change when every logit of a "
                  "position moves by the same constant: {detail}.", applies=lambda ex: ex.label in SHIFTS,
                  custom=_shift_invariant),
            Check("log-prob-range", "every valid log-prob is finite and <= 0",
                  "A log-probability is finite and at most 0 on every valid token: {detail}.",
                  custom=_logprob_range),
            Check("entropy-range", "every valid entropy lies in [0, log V]",
                  "The entropy of a distribution over V tokens lies between 0 and log V: {detail}.",
                  custom=_entropy_range),
            self.padding_check(),
            self.padding_relation_check((LP, ENT), "valid log-probs and entropies"),
            Check("large-logits", "stable for large logits and float32 inputs (log_softmax, not log(softmax))",
                  "On {label} your {field} is {got}{at}, expected {expected}: a token far below the best one has "
                  "a probability that underflows to 0, yet its log-probability is an ordinary finite number.",
                  applies=lambda ex: ex.label in ("edge: large logits", "edge: float32 logits"),
                  fields=(LP, ENT)),
            Check("large-vocabulary", "gathers along the vocabulary dimension of a 32000-token vocabulary",
                  "With V = 32000 your {field} differs{at}: expected {expected}, got {got}.",
                  applies=lambda ex: _vocab(ex) >= 1000, fields=(LP, ENT)),
            Check("grad-logits", "the log-probs carry the gradient w.r.t. the logits",
                  "The actor's loss back-propagates through these log-probs: the gradient of sum(log_probs) "
                  "w.r.t. the logits must be onehot(next token) - softmax(logits) at every valid position and 0 "
                  "elsewhere. Yours differs{at}: expected {expected}, got {got}. Keep the computation in the "
                  "graph (no torch.no_grad(), .detach() or NumPy round trip).",
                  applies=_grad_checked, fields=("grad:logits",), frameworks=("torch",)),
            Check("matches-reference", "log-probs and entropies match the reference on random batches",
                  "Your {field} differs from the reference{at}: expected {expected}, got {got}.",
                  fields=("log_probs", "entropy")),
        ]


def _poison(logits: np.ndarray, unused: np.ndarray, kind: str) -> np.ndarray:
    """Logits with every unused position's whole row set to NaN, to +-inf or to 1e30."""
    out = np.array(logits, dtype=np.float64, copy=True)
    if kind == "nan":
        out[unused] = np.nan
    elif kind == "inf":
        out[unused] = np.inf
        out[unused, 0] = -np.inf
    elif kind == "huge":
        out[unused] = 1e30
    return out


SPEC = TokenLogprobsSpec()
