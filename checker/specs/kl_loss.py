"""Checker spec of the `kl-loss` drill (PyTorch): kl_loss(log_prob, ref_log_prob, response_mask,
kl_type="k3") -> loss. The KL regulariser as a loss term averaged over valid tokens, k1, k2, k3 or "k3+"
(the value of k3 with the gradient of k2, verl's straight-through form), checked above all on the
gradient each one sends into log_prob: 1, d, 1 - e^-d and d per token (over N), with d = log_prob -
ref_log_prob. Each estimator's value and gradient are their own diagnosis axes."""
from __future__ import annotations

import numpy as np

from checker.reference.kl_loss import kl_loss
from checker.specs.base import Axis, Check, Example, contract_check
from checker.specs.llm_outputs import LlmOutputsSpec, finite_padding, right_padded
from checker.specs.losses import draw_array, grid
from checker.specs.token_batches import as_float32, draw_lengths, maybe_fill_padding

TYPES = ("k1", "k2", "k3", "k3+")
FLOATS = ("log_prob", "ref_log_prob")
WORKED = "edge: worked example"


def _type(ex: Example) -> str:
    return ex.hyper.get("kl_type", "k3")


def _tame(ex: Example) -> bool:
    return ex.invalid is None and finite_padding(ex, FLOATS)


def _slug(t: str) -> str:
    return t.replace("+", "-straight-through")


class KlLossSpec(LlmOutputsSpec):
    drill_id = "kl-loss"
    function = "kl_loss"
    positional = ("log_prob", "ref_log_prob", "response_mask")
    hyper_defaults = {"kl_type": "k3"}
    roles = {"mask": ("response_mask",), "nonfinite_padding": "padded log-probs may hold NaN and inf",
             "ref_logps": ("ref_log_prob",)}
    trainable = ("log_prob",)
    constants = ("ref_log_prob",)
    grad_of = ""
    outputs = (("loss", "scalar"),)

    def strategy(self, framework: str):
        from hypothesis import strategies as st

        @st.composite
        def draw(draw):
            B, T = draw(st.integers(1, 3)), draw(st.integers(1, 6))
            mask = right_padded(draw_lengths(draw, B, T), T)
            ref = draw_array(draw, grid(-4.0, -0.125, 0.125), (B, T))
            d = draw_array(draw, grid(-2.0, 2.0, 0.125), (B, T))
            arrays = {"log_prob": ref + d, "ref_log_prob": ref, "response_mask": mask}
            arrays = maybe_fill_padding(draw, arrays, mask, FLOATS)
            if draw(st.integers(0, 4)) == 0:
                arrays = as_float32(arrays, FLOATS)
            kind = draw(st.sampled_from([None, *TYPES]))
            return Example(arrays, {} if kind is None else {"kl_type": kind})
        return draw()

    def edge_cases(self, framework: str) -> list[Example]:
        f = lambda rows, dtype=np.float64: np.asarray(rows, dtype=dtype)  # noqa: E731
        nan, inf = np.nan, np.inf
        worked = {"log_prob": f([[-1.0, -2.0, 0.0]]), "ref_log_prob": f([[-1.5, -1.0, 0.0]]),
                  "response_mask": right_padded([2], 3)}
        two = {"log_prob": f([[-0.2, -3.0, -1.0, -0.5], [-2.5, -0.1, -4.0, -1.0]]),
               "ref_log_prob": f([[-1.2, -0.5, -1.0, -3.0], [-0.5, -2.0, -3.5, -1.0]]),
               "response_mask": right_padded([4, 3], 4)}
        poisoned = {"log_prob": f([[-0.2, -3.0, nan, -inf], [-2.5, inf, nan, nan]]),
                    "ref_log_prob": f([[-1.2, -0.5, -inf, nan], [-0.5, -inf, inf, 0.0]]),
                    "response_mask": right_padded([2, 1], 4)}
        rng = np.random.default_rng(5)
        mask = right_padded([64, 1, 17], 64)
        ref = np.round(rng.uniform(-4, -0.5, (3, 64)) * 8) / 8
        skew = {"log_prob": np.where(mask, ref + np.round(rng.normal(size=(3, 64)) * 8) / 8, -inf),
                "ref_log_prob": np.where(mask, ref, -inf), "response_mask": mask}
        ok = []
        for t in TYPES:
            ok.append(Example(worked, {"kl_type": t}, f"{WORKED} ({t})"))
            ok.append(Example(two, {"kl_type": t}, f"edge: rows of 4 and 3 tokens, log-ratios from -2.5 to 2.5 ({t})"))
            ok.append(Example(poisoned, {"kl_type": t}, f"edge: NaN and inf in the padding ({t})"))
            ok.append(Example(skew, {"kl_type": t}, f"edge: rows of 64, 1 and 17 tokens, -inf padding ({t})"))
        ok.append(Example({"log_prob": f([[-0.7]]), "ref_log_prob": f([[-0.7]]), "response_mask": right_padded([1], 1)},
                          {"kl_type": "k3"}, "edge: one token, policy equal to the reference"))
        ok.append(Example(as_float32(two, FLOATS),
                          {"kl_type": "k3+"}, "edge: float32 inputs"))
        ok += self.defaults_pair(two, "rows of 4 and 3 tokens")
        for t in ("k3", "k3+"):
            for ex in self.padding_pair(two, {"kl_type": t}, f"rows of 4 and 3 tokens ({t})", FLOATS):
                ok.append(Example(ex.arrays, ex.hyper, ex.label, relation=(f"padding-{_slug(t)}", ex.relation[1])))
        bad = [("an unknown kl_type 'k4'", {"kl_type": "k4"}), ("kl_type 'low_var_kl+' (name them k1, k2, k3, k3+)",
                                                               {"kl_type": "low_var_kl+"})]
        return ok + [Example(worked, h, f"contract: {what}", invalid=what) for what, h in bad]

    def reference_outputs(self, t: dict, hyper: dict) -> dict:
        return {"loss": kl_loss(t["log_prob"], t["ref_log_prob"], t["response_mask"], hyper["kl_type"])}

    def checks(self) -> list[Check]:
        words = {"k1": "d", "k2": "d^2 / 2", "k3": "e^-d - 1 + d", "k3+": "the value of k3, e^-d - 1 + d"}
        grads = {"k1": "1", "k2": "d", "k3": "1 - e^-d", "k3+": "d (the gradient of k2)"}
        out = [
            contract_check("an unknown kl_type raises ValueError"),
            Check("worked-example", "reproduces the prompt's worked example",
                  "On the prompt's worked example ({label}) your {field} is {got}; it must be {expected}.",
                  applies=lambda ex: ex.label.startswith(WORKED), fields=("loss", "grad:log_prob")),
        ]
        for t in TYPES:
            out.append(Check(f"{_slug(t)}-value", f"{t}: the loss is the mean of {words[t]} over valid tokens",
                             f"With kl_type={t!r} each valid token contributes {words[t]} (d = log_prob - "
                             f"ref_log_prob), averaged over the valid tokens; expected {{expected}}, got {{got}}.",
                             applies=(lambda k: lambda ex: _tame(ex) and _type(ex) == k)(t), fields=("loss",)))
            out.append(Check(f"{_slug(t)}-gradient", f"{t}: each valid token's gradient is {grads[t]} / N",
                             f"With kl_type={t!r} the gradient w.r.t. log_prob of a valid token is {grads[t]}, "
                             f"divided by the number N of valid tokens, and 0 on padding; yours{{at}} is {{got}}, "
                             f"expected {{expected}}.",
                             applies=(lambda k: lambda ex: ex.invalid is None and _type(ex) == k)(t),
                             fields=("grad:log_prob",)))
        out += [
            Check("padding-nonfinite", "NaN and inf in padding reach neither the loss nor the gradient",
                  "Padded slots hold NaN or inf, yet {detail}; select with torch.where before subtracting.",
                  applies=lambda ex: ex.invalid is None and not finite_padding(ex, FLOATS), custom=_finite_loss),
            self.defaults_relation("kl_type='k3'"),
            *[Check(f"padding-contents-{_slug(t)}", f"what padding holds changes neither value nor gradient ({t})",
                    "Positions where response_mask is False must not count, whatever they hold: {detail}.",
                    relation=f"padding-{_slug(t)}", compare=self.padding_relation(()).compare) for t in ("k3", "k3+")],
            Check("matches-reference", "the loss matches the reference on random batches",
                  "Your loss differs from the reference: expected {expected}, got {got}.", fields=("loss",)),
            Check("no-grad-ref-log-prob", "no gradient reaches ref_log_prob",
                  "The reference policy is frozen, yet your loss sends gradient into ref_log_prob{at} (got {got}). "
                  "Detach it.", fields=("nograd:ref_log_prob",)),
        ]
        return out

    def axes(self, framework: str) -> list[Axis]:
        out = []
        for t in TYPES:
            applies = (lambda k: lambda ex: _type(ex) == k)(t)
            out.append(Axis(f"loss-{t}", f"the loss with kl_type={t!r}", "loss", applies, group=t))
            out.append(Axis(f"grad-{t}", f"the gradient with kl_type={t!r}", "grad:log_prob", applies, group=t))
        out.append(Axis("nograd:ref_log_prob", "the gradient reaching ref_log_prob", "nograd:ref_log_prob",
                        group="nograd:ref_log_prob"))
        return out


def _finite_loss(ex: Example, got: dict) -> str | None:
    loss = float(np.asarray(got["loss"]))
    return None if np.isfinite(loss) else f"on {ex.label} your loss is {loss}"


SPEC = KlLossSpec()
