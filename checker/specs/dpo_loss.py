"""Checker spec of the `dpo-loss` drill (PyTorch): dpo_loss(policy_chosen_logps, policy_rejected_logps,
ref_chosen_logps, ref_rejected_logps, chosen_mask, rejected_mask, beta=0.1) -> (loss, stats), the DPO
objective of Rafailov et al. 2023 (eq. 7) from per-token log-probs summed over each response's valid
tokens, with the implicit rewards beta * (log pi - log pi_ref) and their accuracy as statistics."""
from __future__ import annotations

import numpy as np
import torch

from checker.specs.base import (
    Check,
    Example,
    OutputProblem,
    close,
    contract_check,
    describe,
    relation_compare,
    relation_same_on,
    rounded,
    single_rows,
)
from checker.specs.losses import draw_array, grid
from checker.specs.pref_base import NamedOutputsSpec

STATS = ("chosen_rewards", "rejected_rewards", "reward_accuracy")
LOGPS = ("policy_chosen_logps", "policy_rejected_logps", "ref_chosen_logps", "ref_rejected_logps")
WORKED = {
    "policy_chosen_logps": [[-1.0, -0.5, -2.0], [-0.3, -0.7, -9.0]],
    "policy_rejected_logps": [[-2.0, -1.0, -5.0], [-1.5, -0.2, -0.4]],
    "ref_chosen_logps": [[-1.2, -0.6, -2.1], [-0.5, -0.4, -9.0]],
    "ref_rejected_logps": [[-1.5, -1.2, -5.0], [-1.0, -0.6, -0.8]],
}
WORKED_CHOSEN_MASK = [[True, True, True], [True, True, False]]
WORKED_REJECTED_MASK = [[True, True, False], [True, True, True]]


def _beta(ex: Example) -> float:
    return float(ex.hyper.get("beta", 0.1))


def _large(ex: Example) -> bool:
    return ex.label.startswith("edge: large margins")


def _softplus(x: np.ndarray) -> np.ndarray:
    return np.logaddexp(0.0, x)


def _loss_from_own_rewards(ex: Example, got: dict) -> str | None:
    """The loss is the mean of -log sigmoid(chosen reward - rejected reward), with the answer's own
    implicit rewards: whatever those are, loss and rewards must agree."""
    margin = got["chosen_rewards"] - got["rejected_rewards"]
    want = float(_softplus(-margin).mean())
    if close(np.asarray(want), got["loss"]).all():
        return None
    return (f"with your own implicit rewards (chosen {np.round(got['chosen_rewards'], 6).tolist()}, rejected "
            f"{np.round(got['rejected_rewards'], 6).tolist()}) the loss must be mean(-log sigmoid(chosen - "
            f"rejected)) = {want:.6g}, but yours is {float(got['loss']):.6g}")


def _accuracy_from_own_rewards(ex: Example, got: dict) -> str | None:
    want = float((got["chosen_rewards"] > got["rejected_rewards"]).mean())
    if close(np.asarray(want), got["reward_accuracy"]).all():
        return None
    return (f"your chosen rewards exceed your rejected ones on a share {want:.6g} of the pairs, but your "
            f"reward_accuracy is {float(got['reward_accuracy']):.6g}")


class DpoLossSpec(NamedOutputsSpec):
    drill_id = "dpo-loss"
    function = "dpo_loss"
    positional = (*LOGPS, "chosen_mask", "rejected_mask")
    roles = {"ref_logps": ("ref_chosen_logps", "ref_rejected_logps"), "probability_underflow": True,
             "strict_comparisons": "a pair counts as won only when chosen_rewards > rejected_rewards",
             "card:strict-comparison": "pref-dpo-reward-accuracy", "card:log-of-probability": "pref-log-sigmoid-stable"}
    hyper_defaults = {"beta": 0.1}
    trainable = ("policy_chosen_logps", "policy_rejected_logps")
    constants = ("ref_chosen_logps", "ref_rejected_logps")
    grad_of = "0"
    grad_field = "loss"
    output_fields = ("loss", *STATS)

    def underflow(self, ex: Example, framework: str) -> dict:
        """Where log(sigmoid(beta * h)) loses the value: pairs whose beta * h is below -10, the loss and those
        pairs' rows of the policy gradients."""
        if ex.invalid is not None:
            return {}
        a = ex.arrays
        seq = lambda name, mask: np.where(a[mask], a[name], 0.0).sum(-1)  # noqa: E731
        h = (seq("policy_chosen_logps", "chosen_mask") - seq("ref_chosen_logps", "chosen_mask")
             - seq("policy_rejected_logps", "rejected_mask") + seq("ref_rejected_logps", "rejected_mask"))
        low = _beta(ex) * h < -10.0
        if not low.any():
            return {}
        rows = np.broadcast_to(low[:, None], a["policy_chosen_logps"].shape)
        return {"loss": True, "grad:policy_chosen_logps": rows, "grad:policy_rejected_logps": rows}

    def strategy(self, framework: str):
        from hypothesis import strategies as st

        @st.composite
        def draw(draw):
            B, T = draw(st.integers(1, 4)), draw(st.integers(1, 6))
            arrays = {}
            for side in ("chosen", "rejected"):
                ref = draw_array(draw, grid(-4.0, -0.25, 0.25), (B, T))
                shift = draw_array(draw, grid(-1.0, 1.0, 0.125), (B, T))
                lengths = [draw(st.integers(1, T)) for _ in range(B)]
                mask = np.arange(T)[None, :] < np.array(lengths)[:, None]
                pol = ref + shift
                junk = draw(st.sampled_from([0.0, -30.0, 5.0]))
                arrays[f"policy_{side}_logps"] = np.where(mask, pol, junk)
                arrays[f"ref_{side}_logps"] = np.where(mask, ref, junk / 2)
                arrays[f"{side}_mask"] = mask
            hyper = {}
            beta = draw(st.sampled_from(["default", 0.1, 0.5, 1.0, 2.0]))
            if beta != "default":
                hyper["beta"] = beta
            return Example(arrays, hyper)
        return draw()

    def edge_cases(self, framework: str) -> list[Example]:
        f = lambda x: np.asarray(x, dtype=np.float64)  # noqa: E731
        worked = {k: f(v) for k, v in WORKED.items()}
        worked["chosen_mask"] = np.array(WORKED_CHOSEN_MASK)
        worked["rejected_mask"] = np.array(WORKED_REJECTED_MASK)

        def full(pc, pr, rc, rr):
            arrays = {"policy_chosen_logps": f(pc), "policy_rejected_logps": f(pr), "ref_chosen_logps": f(rc),
                      "ref_rejected_logps": f(rr)}
            arrays["chosen_mask"] = np.ones(arrays["policy_chosen_logps"].shape, dtype=bool)
            arrays["rejected_mask"] = np.ones(arrays["policy_rejected_logps"].shape, dtype=bool)
            return arrays

        ok = [
            Example(dict(worked), {}, "edge: worked example, default beta"),
            Example(dict(worked), {"beta": 0.5}, "edge: worked example, beta 0.5"),
            Example(full([[-400.0, -400.0]], [[-1.0, -1.0]], [[-1.0, -1.0]], [[-1.0, -1.0]]), {"beta": 1.0},
                    "edge: large margins: the chosen response 798 nats less likely than under the reference"),
            Example(full([[-4000.0, -4000.0], [-1.0, -1.0]], [[-2.0, -2.0], [-1.5, -0.5]],
                         [[-2.0, -2.0], [-1.2, -0.8]], [[-2.0, -2.0], [-1.0, -1.0]]), {},
                    "edge: large margins: beta 0.1 times a log-ratio gap of -7996"),
            Example(full([[-1.0, -1.0]], [[-900.0, -900.0]], [[-1.0, -1.0]], [[-1.0, -1.0]]), {"beta": 1.0},
                    "edge: large margins: the rejected response pushed far down (loss near 0)"),
            Example(full([[-1.0, -2.0, -0.5]], [[-1.5, -1.0, -2.0]], [[-1.0, -2.0, -0.5]], [[-1.5, -1.0, -2.0]]),
                    {"beta": 0.5}, "edge: policy equal to the reference (loss log 2, rewards 0)"),
            Example(full([[-1.0], [-2.0], [-0.5]], [[-2.0], [-1.0], [-0.5]], [[-1.5], [-1.5], [-1.0]],
                         [[-1.5], [-1.5], [-1.0]]), {"beta": 1.0}, "edge: one-token responses"),
        ]
        long_c = np.full((1, 6), -0.5)
        long_r = np.full((1, 6), -0.5)
        padded = {"policy_chosen_logps": long_c + np.array([[0.5, 0.5, 0.5, 0.0, 0.0, 0.0]]),
                  "policy_rejected_logps": long_r + np.array([[-0.5, 0.0, 0.0, 0.0, 0.0, 0.0]]),
                  "ref_chosen_logps": long_c.copy(), "ref_rejected_logps": long_r.copy(),
                  "chosen_mask": np.array([[True] * 6]), "rejected_mask": np.array([[True, False, False, False,
                                                                                     False, False]])}
        padded["policy_rejected_logps"][0, 1:] = -20.0
        ok.append(Example(padded, {"beta": 1.0}, "edge: a 6-token chosen and a 1-token rejected response"))
        # relations on the answer itself: padding contents, beta against the scale of the log-ratios, defaults
        other = {k: v.copy() for k, v in padded.items()}
        other["policy_rejected_logps"][0, 1:] = [-3.0, 7.0, -700.0, 0.5, -1.0]
        other["ref_rejected_logps"][0, 1:] = [2.0, -50.0, 0.0, -9.0, -0.25]
        ok += [Example(padded, {"beta": 1.0}, "edge: a 1-token rejected response, padding as given",
                       relation=("padding", "as-given")),
               Example(other, {"beta": 1.0}, "edge: the same responses, other values in the padding",
                       relation=("padding", "changed"))]
        scaled = {k: (v * 2.0 if v.dtype != bool else v) for k, v in worked.items()}
        ok += [Example(dict(worked), {"beta": 0.2}, "edge: worked example, beta 0.2", relation=("beta", "beta")),
               Example(scaled, {"beta": 0.1}, "edge: worked example with every log-prob doubled, beta 0.1",
                       relation=("beta", "scaled"))]
        ok += self.defaults_pair(dict(worked), "worked example")
        z = lambda *shape: np.zeros(shape)  # noqa: E731
        m = lambda *shape: np.ones(shape, dtype=bool)  # noqa: E731
        bad = [
            ("policy and reference log-probs of different shapes",
             {"policy_chosen_logps": z(1, 2), "policy_rejected_logps": z(1, 2), "ref_chosen_logps": z(1, 3),
              "ref_rejected_logps": z(1, 2), "chosen_mask": m(1, 2), "rejected_mask": m(1, 2)}, {}),
            ("a response with no valid token",
             {**{k: z(2, 2) for k in LOGPS}, "chosen_mask": np.array([[True, True], [False, False]]),
              "rejected_mask": m(2, 2)}, {}),
            ("a non-positive beta", {**{k: z(1, 2) for k in LOGPS}, "chosen_mask": m(1, 2), "rejected_mask": m(1, 2)},
             {"beta": 0.0}),
        ]
        return ok + [Example(a, h, f"contract: {what}", invalid=what) for what, a, h in bad]

    def shrink(self, ex: Example) -> list[Example]:
        if ex.invalid is not None:
            return []
        return single_rows(ex, ex.arrays["chosen_mask"].shape[0]) + rounded(ex)

    def reference_outputs(self, t: dict, hyper: dict) -> dict:
        beta = hyper["beta"]
        if not beta > 0:
            raise ValueError("beta must be positive")
        cm, rm = t["chosen_mask"], t["rejected_mask"]
        for side, mask in (("chosen", cm), ("rejected", rm)):
            for who in ("policy", "ref"):
                if t[f"{who}_{side}_logps"].shape != mask.shape:
                    raise ValueError(f"{who}_{side}_logps and {side}_mask differ in shape")
            if not mask.any(-1).all():
                raise ValueError(f"a {side} response has no valid token")

        def seq(x, mask):
            return torch.where(mask, x, torch.zeros((), dtype=torch.float64)).sum(-1)

        pc, pr = seq(t["policy_chosen_logps"], cm), seq(t["policy_rejected_logps"], rm)
        rc, rr = seq(t["ref_chosen_logps"], cm), seq(t["ref_rejected_logps"], rm)
        logits = beta * ((pc - rc) - (pr - rr))
        loss = -torch.nn.functional.logsigmoid(logits).mean()
        chosen, rejected = (beta * (pc - rc)).detach(), (beta * (pr - rr)).detach()
        return {"loss": loss, "chosen_rewards": chosen, "rejected_rewards": rejected,
                "reward_accuracy": (chosen > rejected).double().mean()}

    def extract(self, value, ex: Example, framework: str) -> dict:
        loss, stats = self.tuple_of(value, 2, "dpo_loss must return (loss, stats)")
        out = {"loss": self.scalar(loss, "torch")}
        if not isinstance(stats, dict):
            raise OutputProblem("output-type", f"stats must be a dict; yours is {describe(stats)}")
        missing = [k for k in STATS if k not in stats]
        if missing:
            raise OutputProblem("output-type", f"stats must have the keys {', '.join(STATS)}; yours lacks "
                                               f"{', '.join(missing)}")
        B = ex.arrays["chosen_mask"].shape[0]
        for k in ("chosen_rewards", "rejected_rewards"):
            out[k] = self.array(stats[k], "torch", (B,), f"stats[{k!r}]", "one implicit reward per pair")
        out["reward_accuracy"] = self.number(stats["reward_accuracy"], "stats['reward_accuracy']")
        return out

    def checks(self) -> list[Check]:
        ordinary = lambda ex: ex.invalid is None and not _large(ex)  # noqa: E731
        return [
            contract_check("invalid inputs raise ValueError"),
            Check("worked-example", "reproduces the prompt's worked example",
                  "On the prompt's {label}, your {field} is {got}{at}; it must be {expected}.",
                  applies=lambda ex: ex.label.startswith("edge: worked example"), fields=("loss", *STATS)),
            Check("implicit-rewards", "implicit rewards are beta times the summed policy-minus-reference log-ratio",
                  "Each implicit reward is beta * (sum of log pi - sum of log pi_ref) over the response's valid "
                  "tokens; your {field} differs{at}: expected {expected}, got {got}.",
                  applies=ordinary, fields=("chosen_rewards", "rejected_rewards")),
            Check("loss-from-rewards", "the loss is mean(-log sigmoid(chosen reward - rejected reward))",
                  "DPO's loss is the Bradley-Terry loss of the implicit rewards: {detail}.",
                  applies=ordinary, custom=_loss_from_own_rewards),
            Check("accuracy-from-rewards", "reward_accuracy is the share of pairs whose chosen reward is higher",
                  "reward_accuracy counts the pairs with chosen reward > rejected reward (a tie is not a win): "
                  "{detail}.", applies=lambda ex: ex.invalid is None, custom=_accuracy_from_own_rewards),
            Check("padding-ignored", "padded tokens count nowhere in the implicit rewards",
                  "Tokens where the mask is False are not part of the response, whatever they hold: {detail}.",
                  relation="padding", compare=relation_compare("changed", "as-given", "with other values in the padding",
                                                               "with the padding as given")),
            Check("large-margins", "stays finite and exact where sigmoid underflows",
                  "On {label}, the loss is a plain number ({expected}: -log sigmoid(x) is about -x for a very "
                  "negative x); yours is {got}.",
                  applies=_large, fields=("loss",)),
            Check("beta", "beta scales the log-ratio inside the sigmoid",
                  "The loss is -log sigmoid(beta * ((pi_c - ref_c) - (pi_r - ref_r))) and the rewards beta times "
                  "the log-ratios, so doubling every log-prob and halving beta changes nothing: {detail}.",
                  relation="beta", compare=relation_same_on("beta", ("loss", *STATS), "with beta 0.2",
                                                            lambda role: "with the log-probs doubled and beta 0.1")),
            Check("defaults", "default beta = 0.1",
                  "Called without beta your function must behave as with beta=0.1 passed: {detail}.",
                  relation="defaults", compare=relation_compare("implicit", "explicit", "called without beta",
                                                                "with beta=0.1 passed")),
            Check("matches-reference", "loss and statistics match the reference on random batches",
                  "Your {field} differs from the reference{at}: expected {expected}, got {got}.",
                  fields=("loss", *STATS)),
            *self.gradient_checks(),
        ]

    def grad_hint(self, name: str) -> str:
        return " Only the policy's log-probs are trained; sum them over the valid tokens of each response."


SPEC = DpoLossSpec()
