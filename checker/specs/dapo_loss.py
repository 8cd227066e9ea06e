"""Checker spec of the `dapo-loss` drill: dapo_loss(log_prob, old_log_prob, scores, response_mask, truncated,
group_size, max_len, cache_len, clip_low=0.2, clip_high=0.28, overlong_filter=True, eps=1e-6) ->
(loss, advantages, loss_mask). DAPO's batch step (Yu et al. 2025): the soft overlong punishment added to
each score, the dynamic-sampling filter on the raw scores (groups whose scores are all equal leave the
loss), overlong filtering of truncated responses, GRPO's group advantage of the shaped rewards (unbiased
std), and the decoupled clip [1 - clip_low, 1 + clip_high] averaged over every token that enters the loss.
The advantages, the loss mask and the loss with its gradient are separate parts of the diagnosis; the
advantages of batches with and without responses in the overlong buffer are separate classes."""
from __future__ import annotations

import numpy as np
import torch

from checker.reference.dapo import dapo_loss
from checker.sandbox.model import Call
from checker.specs.base import Axis, Check, Example, close, contract_check, first_where
from checker.specs.llm_outputs import LlmOutputsSpec, finite_padding, right_padded
from checker.specs.losses import draw_array, grid
from checker.specs.token_batches import as_float32, maybe_fill_padding

FLOATS = ("log_prob", "old_log_prob")
WORKED = "edge: worked example"
WORKED_LENGTHS = [5, 3, 2, 6, 4, 1, 6, 6, 4]
WORKED_OLD = [[-1.0, -1.5, -2.0, -0.5, -0.75, 0.0], [-1.0, -1.25, -0.5, 0.0, 0.0, 0.0], [-0.75, -2.0, 0.0, 0.0, 0.0, 0.0],
              [-1.5, -1.25, -2.0, -1.75, -1.0, -1.0], [-0.5, -1.0, -1.5, -0.25, 0.0, 0.0], [-2.0, 0.0, 0.0, 0.0, 0.0, 0.0],
              [-1.0, -1.5, -0.5, -0.5, -1.0, -1.0], [-0.25, -0.5, -1.0, -1.25, -1.5, -0.75],
              [-1.0, -1.5, -1.75, -1.0, 0.0, 0.0]]
WORKED_LR = [[0.3, 0.0, -0.1, 0.2, 0.0, 0.0], [0.0, 0.25, -0.3, 0.0, 0.0, 0.0], [0.2, 0.3, 0.0, 0.0, 0.0, 0.0],
             [0.1, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.1, 0.0, 0.0, 0.0, 0.0], [0.5, 0.0, 0.0, 0.0, 0.0, 0.0],
             [0.4, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0] * 6, [-0.25, 0.2, 0.0, 0.1, 0.0, 0.0]]
WORKED_SCORES = [1.0, 0.0, 1.0, 1.0, 1.0, 1.0, 0.0, 1.0, 1.0]
WORKED_TRUNCATED = [False, False, False, True, False, False, True, True, False]
WORKED_HYPER = {"group_size": 3, "max_len": 6, "cache_len": 2}


def _tame(ex: Example) -> bool:
    return ex.invalid is None and finite_padding(ex, FLOATS)


def _in_buffer(ex: Example) -> bool:
    """Some response is longer than max_len - cache_len (its soft overlong penalty is not 0)."""
    lengths = ex.arrays["response_mask"].sum(-1)
    return bool((lengths > ex.hyper["max_len"] - ex.hyper["cache_len"]).any())


def _groups_centred(ex: Example, got: dict) -> str | None:
    a = np.asarray(got["advantages"], dtype=np.float64)
    G = int(ex.hyper["group_size"])
    if not np.isfinite(a).all():
        return None
    sums = a.reshape(-1, G).sum(axis=1)
    bad = ~close(sums, np.zeros_like(sums))
    if bad.any():
        (p,) = first_where(bad)
        return f"the advantages of prompt {p} (rows {p * G} to {p * G + G - 1}) sum to {sums[p]:.6g}, not 0"
    return None


class DapoSpec(LlmOutputsSpec):
    drill_id = "dapo-loss"
    function = "dapo_loss"
    positional = ("log_prob", "old_log_prob", "scores", "response_mask", "truncated", "group_size", "max_len",
                  "cache_len")
    settings = ("group_size", "max_len", "cache_len")  # positional, but given in each example's hyper
    hyper_defaults = {"clip_low": 0.2, "clip_high": 0.28, "overlong_filter": True, "eps": 1e-6}
    roles = {"mask": ("response_mask",), "nonfinite_padding": "padded log-probs may hold NaN and inf",
             "old_logp": ("old_log_prob",)}
    trainable = ("log_prob",)
    constants = ("old_log_prob",)
    outputs = (("loss", "scalar"), ("advantages", "b"), ("loss_mask", "mask"))

    def strategy(self, framework: str):
        from hypothesis import strategies as st

        @st.composite
        def draw(draw):
            G, P = draw(st.sampled_from([2, 2, 3, 4])), draw(st.integers(1, 3))
            B = G * P
            max_len = draw(st.integers(2, 7))
            cache_len = draw(st.integers(1, max_len - 1))
            lengths = [draw(st.integers(1, max_len)) for _ in range(B)]
            mask = right_padded(lengths, max_len)
            truncated = np.array([n == max_len and draw(st.booleans()) for n in lengths])
            old = draw_array(draw, grid(-3.0, -0.25, 0.25), (B, max_len))
            new = old + draw_array(draw, grid(-0.5, 0.5, 0.0625), (B, max_len))
            scores = draw_array(draw, st.sampled_from([0.0, 1.0, 1.0, 0.5]), (B,))
            arrays = {"log_prob": new, "old_log_prob": old, "scores": scores, "response_mask": mask,
                      "truncated": truncated}
            arrays = maybe_fill_padding(draw, arrays, mask, FLOATS)
            hyper = {"group_size": G, "max_len": max_len, "cache_len": cache_len}
            band = draw(st.sampled_from([None, (0.2, 0.28), (0.1, 0.3), (0.2, 0.2)]))
            if band is not None:
                hyper.update(clip_low=band[0], clip_high=band[1])
            filt = draw(st.sampled_from([None, True, False]))
            if filt is not None:
                hyper["overlong_filter"] = filt
            return Example(arrays, hyper)
        return draw()

    def edge_cases(self, framework: str) -> list[Example]:
        f = lambda rows, dtype=np.float64: np.asarray(rows, dtype=dtype)  # noqa: E731
        nan, inf = np.nan, np.inf
        mask = right_padded(WORKED_LENGTHS, 6)
        old = np.where(mask, f(WORKED_OLD), 0.0)
        worked = {"log_prob": old + np.where(mask, f(WORKED_LR), 0.0), "old_log_prob": old, "scores": f(WORKED_SCORES),
                  "response_mask": mask, "truncated": np.array(WORKED_TRUNCATED)}
        poisoned = dict(worked, log_prob=np.where(mask, worked["log_prob"], nan),
                        old_log_prob=np.where(mask, worked["old_log_prob"], -inf))
        # equal scores, different lengths: the filter must look at the scores, not the shaped rewards
        tie = {"log_prob": f([[-1.0, -0.5, 0.0, 0.0], [-0.8, -0.6, -1.0, -0.4], [-1.0, 0.0, 0.0, 0.0],
                              [-0.2, -0.3, -0.4, 0.0]]),
               "old_log_prob": f([[-1.2, -0.5, 0.0, 0.0], [-0.8, -0.9, -1.0, -0.5], [-1.1, 0.0, 0.0, 0.0],
                                  [-0.2, -0.1, -0.4, 0.0]]),
               "scores": f([1.0, 1.0, 0.0, 1.0]), "response_mask": right_padded([2, 4, 1, 3], 4),
               "truncated": np.array([False, True, False, False])}
        rng = np.random.default_rng(31)
        lmask = right_padded([64, 1, 40, 60, 64, 7], 64)
        lold = np.round(rng.uniform(-3, -0.5, (6, 64)) * 8) / 8
        long = {"log_prob": np.where(lmask, lold + np.round(rng.uniform(-0.4, 0.4, (6, 64)) * 16) / 16, -inf),
                "old_log_prob": np.where(lmask, lold, nan), "scores": f([1.0, 0.0, 0.0, 0.0, 1.0, 1.0]),
                "response_mask": lmask, "truncated": np.array([True, False, False, False, True, False])}
        ok = [
            Example(worked, dict(WORKED_HYPER), WORKED),
            Example(worked, dict(WORKED_HYPER, overlong_filter=False), f"{WORKED} with overlong_filter=False"),
            Example(worked, dict(WORKED_HYPER, clip_high=0.2), f"{WORKED} with clip_high=0.2"),
            Example(poisoned, dict(WORKED_HYPER), "edge: NaN and -inf in the padding"),
            Example(tie, {"group_size": 2, "max_len": 4, "cache_len": 2}, "edge: equal scores, different lengths"),
            Example(tie, {"group_size": 4, "max_len": 4, "cache_len": 3}, "edge: one group of four, a long buffer"),
            Example(long, {"group_size": 3, "max_len": 64, "cache_len": 16}, "edge: responses of 1 to 64 tokens, buffer 16"),
            Example(long, {"group_size": 2, "max_len": 64, "cache_len": 30, "clip_low": 0.1, "clip_high": 0.3},
                    "edge: responses of 1 to 64 tokens, buffer 30, a (0.1, 0.3) band"),
            Example(as_float32(worked, FLOATS + ("scores",)),
                    dict(WORKED_HYPER), "edge: float32 inputs"),
        ]
        ok += [Example(worked, dict(WORKED_HYPER), "edge: the worked example (defaults left out)",
                       relation=("defaults", "implicit")),
               Example(worked, dict(WORKED_HYPER, **self.hyper_defaults), "edge: the worked example (defaults passed)",
                       relation=("defaults", "explicit"))]
        ok += self.padding_pair(tie, {"group_size": 2, "max_len": 4, "cache_len": 2}, "four responses", FLOATS)
        bad = [("group_size = 1 (nothing to compare in a group)", dict(WORKED_HYPER, group_size=1)),
               ("B = 9 with group_size = 2", dict(WORKED_HYPER, group_size=2)),
               ("cache_len = 0", dict(WORKED_HYPER, cache_len=0)),
               ("cache_len = max_len", dict(WORKED_HYPER, cache_len=6))]
        return ok + [Example(worked, h, f"contract: {what}", invalid=what) for what, h in bad]

    def reference_outputs(self, t: dict, hyper: dict) -> dict:
        loss, adv, mask = dapo_loss(t["log_prob"], t["old_log_prob"], t["scores"], t["response_mask"], t["truncated"],
                                    hyper["group_size"], hyper["max_len"], hyper["cache_len"], hyper["clip_low"],
                                    hyper["clip_high"], hyper["overlong_filter"], hyper["eps"])
        return {"loss": loss, "advantages": adv, "loss_mask": mask.to(loss.dtype)}

    def to_call(self, ex: Example, framework: str):
        """The three settings go positionally after the arrays, as the signature has them."""
        args: list = []
        for name in self.positional[:5]:
            a = np.array(ex.arrays[name], copy=True)
            args.append(torch.from_numpy(a) if framework == "torch" else a)
        args += [int(ex.hyper[k]) for k in self.settings]
        hyper = {k: v for k, v in ex.hyper.items() if k not in self.settings}
        if framework == "torch" and ex.invalid is None:
            return Call(tuple(args), hyper, grad_of=self.grad_of, grad_wrt=(*self.trainable, *self.constants))
        return Call(tuple(args), hyper, expect_error=ex.invalid is not None)

    def row_step(self, ex: Example) -> int:
        return int(ex.hyper.get("group_size", 2))

    def can_cut(self, ex: Example) -> bool:
        return False  # the columns are max_len long: cutting them changes the truncation

    def kinks(self, ex: Example) -> dict:
        lo, hi = 1 - ex.hyper.get("clip_low", 0.2), 1 + ex.hyper.get("clip_high", 0.28)
        with np.errstate(all="ignore"):
            r = np.exp(np.asarray(ex.arrays["log_prob"], np.float64) - np.asarray(ex.arrays["old_log_prob"], np.float64))
        return {"log_prob": ((np.abs(r - lo) <= 1e-9) | (np.abs(r - hi) <= 1e-9)) & ex.arrays["response_mask"]}

    def checks(self) -> list[Check]:
        mask_field = self.compared("loss_mask")
        return [
            contract_check("groups of fewer than two, a partial group or a bad cache_len raise ValueError"),
            Check("worked-example", "reproduces the prompt's worked example",
                  "On the prompt's worked example ({label}) your {field}{at} is {got}; it must be {expected}.",
                  applies=lambda ex: ex.label.startswith(WORKED), fields=("loss", "advantages", mask_field)),
            Check("groups-centred", "each prompt's advantages sum to 0",
                  "A group advantage is centred on the group's mean (and a dropped group's is 0): {detail}.",
                  applies=lambda ex: ex.invalid is None, custom=_groups_centred),
            Check("advantages", "advantages: the group-normalised shaped rewards, 0 for dropped groups",
                  "Each response's advantage is (r - mean) / (std + eps) over its group, r = score + soft overlong "
                  "penalty, unbiased std, and 0 when the group's scores are all equal; yours{at} is {got}, expected "
                  "{expected}.", applies=_tame, fields=("advantages",)),
            Check("loss-mask", "the loss keeps the valid tokens of kept groups, minus truncated responses when filtering",
                  "A valid token enters the loss unless its group's scores are all equal or, with overlong_filter, its "
                  "response was truncated; your loss_mask{at} is {got}, expected {expected}.",
                  applies=lambda ex: ex.invalid is None, fields=(mask_field,)),
            self.padding_zero_check(("loss_mask",)),
            Check("loss", "the loss is the decoupled-clip objective averaged over the kept tokens",
                  "The loss is the mean over every token of the batch that enters the loss of max(-A r, -A clip(r, "
                  "1 - clip_low, 1 + clip_high)); expected {expected}, got {got}.", applies=_tame, fields=("loss",)),
            Check("padding-nonfinite", "NaN and inf in padding reach neither the loss nor the gradient",
                  "Padded log-probs hold NaN or inf, yet {detail}; select with where(mask, x, 0) before the ratio.",
                  applies=lambda ex: ex.invalid is None and not finite_padding(ex, FLOATS), custom=_finite_loss),
            self.defaults_relation("clip_low=0.2, clip_high=0.28, overlong_filter=True, eps=1e-6"),
            self.padding_relation(("loss", "advantages", "loss_mask")),
            Check("matches-reference", "loss, advantages and loss mask match the reference on random batches",
                  "Your {field}{at} differs from the reference: expected {expected}, got {got}.",
                  fields=("loss", "advantages", mask_field)),
            *self.gradient_checks(),
        ]

    def grad_hint(self, name: str) -> str:
        return (" Each kept token's gradient is -A r / N where its clipped branch is not the one taken (N tokens kept "
                "in the batch), 0 where it is, and 0 on dropped, filtered and padded tokens.")

    def axes(self, framework: str) -> list[Axis]:
        buffer = _in_buffer
        plain = lambda ex: not _in_buffer(ex)  # noqa: E731
        out = [Axis("advantages-plain", "the advantages without overlong responses", "advantages", plain,
                    group="advantages-plain"),
               Axis("advantages-buffer", "the advantages with responses in the overlong buffer", "advantages", buffer,
                    group="advantages-buffer"),
               Axis("loss_mask", "the loss mask on valid tokens", self.compared("loss_mask"), group="loss_mask"),
               Axis("loss_mask-padding", "the loss mask on padded positions", self.on_padding("loss_mask"),
                    group="loss_mask-padding"),
               Axis("loss", "the loss", "loss", group="loss")]
        if framework == "torch":
            out += [Axis("grad:log_prob", "the gradient w.r.t. log_prob", "grad:log_prob", group="loss"),
                    Axis("nograd:old_log_prob", "the gradient reaching old_log_prob", "nograd:old_log_prob",
                         group="nograd:old_log_prob")]
        return out


def _finite_loss(ex: Example, got: dict) -> str | None:
    loss = float(np.asarray(got["loss"]))
    return None if np.isfinite(loss) else f"on {ex.label} your loss is {loss}"


SPEC = DapoSpec()
