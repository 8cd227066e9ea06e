"""Checker spec of the `total-loss` drill: ppo_total_loss(new_logp, old_logp, advantages, values,
old_values, returns, entropy, clip_eps=0.2, vf_coef=0.5, ent_coef=0.01) =
policy + vf_coef * value - ent_coef * mean(entropy)."""
from __future__ import annotations

from typing import Callable, Mapping

import numpy as np

from checker.reference import policy_loss, total_loss, value_loss
from checker.specs.base import Axis, Check, Example, close, relation_compare
from checker.specs.losses import LossSpec, draw_array, draw_shape, grid
from checker.specs.value_loss import value_kinks


def _quiet_policy(ex: Example) -> bool:
    """Ratio 1 and A = 0 everywhere: the policy term is exactly 0."""
    return bool((ex.arrays["new_logp"] == ex.arrays["old_logp"]).all() and (ex.arrays["advantages"] == 0).all())


def _quiet_value(ex: Example) -> bool:
    """V = V_old = R everywhere: the value term is exactly 0, clipped or not, whatever its coefficient."""
    a = ex.arrays
    return bool((a["values"] == a["returns"]).all() and (a["old_values"] == a["returns"]).all())


def _quiet_entropy(ex: Example) -> bool:
    """No entropy: the entropy term is exactly 0, averaged or summed, whatever its coefficient."""
    return not ex.arrays["entropy"].any()


# Each term of the total isolated by its inputs (the other two terms are exactly 0 there, whatever the answer
# does with the coefficients): the diagnosis reads each term as its own axis, so a slip in one term does not
# hide a slip in another.
def policy_only(ex: Example) -> bool:
    return _quiet_value(ex) and _quiet_entropy(ex) and not _quiet_policy(ex)


def value_only(ex: Example) -> bool:
    return _quiet_policy(ex) and _quiet_entropy(ex) and not _quiet_value(ex)


def entropy_only(ex: Example) -> bool:
    return _quiet_policy(ex) and _quiet_value(ex) and not _quiet_entropy(ex)


COEF_ROLES = {"c00": (0.0, 0.0), "c10": (1.0, 0.0), "c01": (0.0, 1.0), "mix": (0.5, 0.25),
              "e10": (1.0, 0.0), "v01": (0.0, 1.0)}  # (vf_coef, ent_coef); e10: other entropy, v01: other values


def _coefficients(got: dict, where=None) -> str | None:
    """On the answer's own totals: ent_coef = 0 switches the entropy off, vf_coef = 0 switches the value term
    off, and the total is linear in the two coefficients (each scales one term)."""
    if any(got.get(r) is None for r in COEF_ROLES):
        return None
    L = {r: float(got[r]["loss"]) for r in COEF_ROLES}
    same = lambda a, b: bool(close(np.asarray(a), np.asarray(b)))  # noqa: E731
    if not same(L["e10"], L["c10"]):
        return (f"with vf_coef = 1 and ent_coef = 0 your total is {L['c10']:.6g}, but {L['e10']:.6g} once only the "
                f"entropy changes: with ent_coef = 0 the entropy must not count")
    if not same(L["v01"], L["c01"]):
        return (f"with vf_coef = 0 and ent_coef = 1 your total is {L['c01']:.6g}, but {L['v01']:.6g} once only the "
                f"values change: with vf_coef = 0 the value loss must not count")
    want = L["c00"] + 0.5 * (L["c10"] - L["c00"]) + 0.25 * (L["c01"] - L["c00"])
    if not same(L["mix"], want):
        return (f"your totals with (vf_coef, ent_coef) = (0, 0), (1, 0), (0, 1) are {L['c00']:.6g}, {L['c10']:.6g}, "
                f"{L['c01']:.6g}, so (0.5, 0.25) must give {want:.6g}, yours is {L['mix']:.6g}: each coefficient "
                f"multiplies its term")
    return None


class TotalLossSpec(LossSpec):
    drill_id = "total-loss"
    function = "ppo_total_loss"
    positional = ("new_logp", "old_logp", "advantages", "values", "old_values", "returns", "entropy")
    roles = {"new_logp": ("new_logp",), "old_logp": ("old_logp",), "logp_extremes": True, "advantages": ("advantages",),
             "old_values": ("old_values",), "returns": ("returns",)}
    hyper_defaults = {"clip_eps": 0.2, "vf_coef": 0.5, "ent_coef": 0.01}
    trainable = ("new_logp", "values", "entropy")
    constants = ("old_logp", "advantages", "old_values", "returns")
    terms = {"policy": "policy-loss", "value": "value-loss"}

    def assemble(self, parts: Mapping[str, Callable]) -> Callable:
        """policy + vf_coef * value - ent_coef * mean(entropy), the policy and value terms given as their
        drills' functions (the diagnosis puts their catalogued mistakes inside an otherwise right total)."""
        policy, value = parts["policy"], parts["value"]
        d = self.hyper_defaults

        def ppo_total_loss(new_logp, old_logp, advantages, values, old_values, returns, entropy,
                           clip_eps=d["clip_eps"], vf_coef=d["vf_coef"], ent_coef=d["ent_coef"]):
            return (policy(new_logp, old_logp, advantages, clip_eps)
                    + vf_coef * value(values, old_values, returns, clip_eps) - ent_coef * entropy.mean())
        return ppo_total_loss

    def strategy(self, framework: str):
        from hypothesis import strategies as st

        @st.composite
        def draw(draw):
            # half the batches exercise one term alone (the other two exactly 0): one diagnosis axis each
            kind = draw(st.sampled_from(["all", "all", "all", "policy", "value", "entropy"]))
            shape = draw_shape(draw, framework, max_t=6)
            old = draw_array(draw, grid(-3.0, -0.125, 0.125), shape)
            lr = draw_array(draw, grid(-0.75, 0.75, 0.0625), shape)
            adv = draw_array(draw, grid(-2.0, 2.0, 0.25), shape)
            vold = draw_array(draw, grid(-2.0, 2.0, 0.125), shape)
            move = draw_array(draw, grid(-0.75, 0.75, 0.0625), shape)
            ret = draw_array(draw, grid(-3.0, 3.0, 0.25), shape)
            ent = draw_array(draw, grid(0.125, 3.0, 0.125), shape)
            if kind in ("value", "entropy"):
                lr, adv = np.zeros(shape), np.zeros(shape)
            if kind in ("policy", "entropy"):
                vold, move, ret = ret, np.zeros(shape), ret
            if kind in ("policy", "value"):
                ent = np.zeros(shape)
            hyper = {"clip_eps": draw(st.sampled_from([0.2, 0.1])),
                     "vf_coef": draw(st.sampled_from([0.5, 0.5, 1.0, 0.25])),
                     "ent_coef": draw(st.sampled_from([0.01, 0.01, 0.1, 0.5]))}
            return Example({"new_logp": old + lr, "old_logp": old, "advantages": adv, "values": vold + move,
                            "old_values": vold, "returns": ret, "entropy": ent}, hyper)
        return draw()

    def edge_cases(self, framework: str) -> list[Example]:
        def ex(label, ratios, adv, v, vold, ret, ent, base=-1.0, log_ratio=None, **hyper):
            old = np.full(len(ratios), base)
            lr = np.log(np.asarray(ratios, dtype=np.float64)) if log_ratio is None else np.asarray(log_ratio, dtype=np.float64)
            arrays = {"new_logp": old + lr, "old_logp": old,
                      "advantages": adv, "values": v, "old_values": vold, "returns": ret, "entropy": ent}
            arrays = {k: np.asarray(x, dtype=np.float64) for k, x in arrays.items()}
            if framework == "torch":
                arrays = {k: x[None] for k, x in arrays.items()}
            return Example(arrays, hyper, f"edge: {label}")

        one, zero = [1.0, 1.0, 1.0], [0.0, 0.0, 0.0]
        return [
            ex("only the entropy term (ratio 1, A = 0, V = R)", one, zero, [0.5, 0.5, 0.5], [0.5, 0.5, 0.5],
               [0.5, 0.5, 0.5], [1.0, 2.0, 0.5], clip_eps=0.2, vf_coef=0.5, ent_coef=0.1),
            ex("only the value term (ratio 1, A = 0, no entropy)", one, zero, [1.0, 0.0, 0.5], [1.0, 0.0, 0.5],
               [2.0, -1.0, 0.0], zero, clip_eps=0.2, vf_coef=0.5, ent_coef=0.01),
            ex("only the policy term (coefficients 0)", [1.5, 0.5, 1.1], [1.0, -1.0, 0.5], [1.0, 0.0, 0.5],
               [0.0, 0.0, 0.0], [2.0, -1.0, 0.0], [1.0, 1.0, 1.0], clip_eps=0.2, vf_coef=0.0, ent_coef=0.0),
            ex("value coefficient 1, entropy coefficient 0.5", [1.5, 0.5, 1.1], [1.0, -1.0, 0.5], [1.0, 0.0, 0.5],
               [0.0, 0.0, 0.0], [2.0, -1.0, 0.0], [1.0, 2.0, 0.5], clip_eps=0.2, vf_coef=1.0, ent_coef=0.5),
            ex("clipped policy and value terms", [1.5, 0.5, 1.1], [1.0, -1.0, 0.5], [1.0, -1.0, 0.5],
               [0.0, 0.0, 0.0], [2.0, -2.0, 1.5], [1.0, 2.0, 0.5], clip_eps=0.2, vf_coef=0.5, ent_coef=0.01),
            ex("huge ratios with A < 0", [12.0, 20.0, 7.0], [-1.0, -2.0, -0.5], [1.0, 0.0, 0.5], [0.0, 0.0, 0.0],
               [2.0, -1.0, 0.0], [1.0, 2.0, 0.5], clip_eps=0.2, vf_coef=0.5, ent_coef=0.01),
            ex("huge ratios on both sides", [16.0, 0.05, 30.0], [-1.5, 1.0, -0.5], [0.5, 0.25, -0.5],
               [0.0, 0.5, 0.0], [1.0, 1.0, 1.0], [0.5, 0.5, 0.5], clip_eps=0.1, vf_coef=1.0, ent_coef=0.1),
            ex("log-probs near -1000", [1.0] * 3, [1.0, 1.0, -1.0], [1.0, 0.0, 0.5], [0.0, 0.0, 0.0],
               [2.0, -1.0, 0.0], [1.0, 2.0, 0.5], base=-1000.0, log_ratio=[0.125, -0.0625, 0.375], clip_eps=0.2,
               vf_coef=0.5, ent_coef=0.01),
            ex("log-probs near -800", [1.0] * 3, [2.0, -1.0, 1.0], [0.5, 0.5, 0.5], [0.0, 1.0, 0.0],
               [1.0, 0.0, -1.0], [0.5, 1.0, 1.5], base=-800.0, log_ratio=[0.0625, -0.375, 0.3125], clip_eps=0.2,
               vf_coef=0.5, ent_coef=0.1),
        ] + self.defaults_pair(ex("", [1.5, 0.5, 1.1], [1.0, -1.0, 0.5], [1.0, 0.0, 0.5], [0.0, 0.0, 0.0],
                                  [2.0, -1.0, 0.0], [1.0, 2.0, 0.5]).arrays, "default coefficients") + [
            Example(ex("", [1.5, 0.5, 1.1], [1.0, -1.0, 0.5], [0.5, -1.0, 2.0] if role == "v01" else [1.0, 0.0, 0.5],
                       [0.0, 0.0, 0.0], [2.0, -1.0, 0.0],
                       [0.25, 3.0, 1.5] if role == "e10" else [1.0, 2.0, 0.5]).arrays,
                    {"clip_eps": 0.2, "vf_coef": vf, "ent_coef": ent},
                    f"edge: vf_coef = {vf:g}, ent_coef = {ent:g}" + (", other entropy" if role == "e10" else
                                                                     ", other values" if role == "v01" else ""),
                    relation=("coefficients", role))
            for role, (vf, ent) in COEF_ROLES.items()]

    def reference_loss(self, t: dict, hyper: dict):
        p = policy_loss(t["new_logp"], t["old_logp"], t["advantages"], clip_low=hyper["clip_eps"])[0]
        v = value_loss(t["values"], t["old_values"], t["returns"], clip=hyper["clip_eps"])
        return total_loss(p, v, t["entropy"], hyper["vf_coef"], hyper["ent_coef"])

    def kinks(self, ex: Example) -> dict:
        e = ex.hyper.get("clip_eps", 0.2)
        r = np.exp(ex.arrays["new_logp"] - ex.arrays["old_logp"])
        return {"new_logp": (np.abs(r - (1 + e)) <= 1e-9) | (np.abs(r - (1 - e)) <= 1e-9),
                "advantages": ex.arrays["advantages"] == 0,
                "values": value_kinks(ex.arrays["values"], ex.arrays["old_values"], ex.arrays["returns"], e)}

    def derive(self, ex: Example, outputs: dict) -> dict:
        """On batches where one term is alone: its size and its sign, separately (a sign slip and a slip in
        the coefficient or the reduction of the same term are then two axes)."""
        if "loss" not in outputs:
            return {}
        loss = np.asarray(outputs["loss"], dtype=np.float64)
        for term, alone in (("value", value_only), ("entropy", entropy_only)):
            if alone(ex):
                return {f"{term} term size": np.abs(loss), f"{term} term sign": np.sign(loss)}
        return {}

    def axes(self, framework: str) -> list[Axis]:
        """The total, and each term on the batches that isolate it (with the gradient of its own input):
        the policy term; the value and the entropy terms by size and by sign. Each term is its own group, so
        a mistake in one term is named whatever another term does."""
        out = [
            Axis("loss", "the total loss", "loss", group="total"),
            Axis("policy-term", "the policy term (value and entropy terms 0)", "loss", applies=policy_only,
                 group="policy"),
            Axis("value-term-size", "the size of the value term (policy and entropy terms 0)", "value term size",
                 applies=value_only, group="value"),
            Axis("value-term-sign", "the sign of the value term", "value term sign", applies=value_only,
                 group="value-sign"),
            Axis("entropy-term-size", "the size of the entropy term (policy and value terms 0)",
                 "entropy term size", applies=entropy_only, group="entropy"),
            Axis("entropy-term-sign", "the sign of the entropy term", "entropy term sign", applies=entropy_only,
                 group="entropy-sign"),
        ]
        if framework == "torch":
            out += [Axis("grad:new_logp", "the gradient w.r.t. new_logp", "grad:new_logp", group="policy"),
                    Axis("grad:values", "the gradient w.r.t. values", "grad:values", group="value"),
                    Axis("grad:entropy", "the gradient w.r.t. entropy", "grad:entropy", group="entropy")]
            out += [Axis(f"nograd:{n}", f"the gradient reaching {n}", f"nograd:{n}", group=f"nograd:{n}")
                    for n in self.constants]
        return out

    def grad_hint(self, name: str) -> str:
        if name == "entropy":
            return " The entropy bonus is subtracted: d loss / d entropy = -ent_coef / N, so minimising raises entropy."
        return ""

    def checks(self) -> list[Check]:
        return [
            Check("entropy-term", "the entropy bonus is subtracted: - ent_coef * mean(entropy)",
                  "With ratio 1, A = 0 and V = R only the entropy term is left, so the loss must be "
                  "-ent_coef * mean(entropy) (a bonus: minimising the loss raises entropy); expected {expected}, "
                  "got {got}.",
                  applies=lambda ex: _quiet_policy(ex) and bool((ex.arrays["values"] == ex.arrays["returns"]).all()),
                  fields=("loss",)),
            Check("value-term", "the value loss enters as + vf_coef * value_loss",
                  "With ratio 1, A = 0 and no entropy the loss must be + vf_coef * value_loss; expected {expected}, "
                  "got {got}.",
                  applies=lambda ex: _quiet_policy(ex) and not ex.arrays["entropy"].any(), fields=("loss",)),
            Check("policy-term", "with zero coefficients, the total is the clipped policy loss",
                  "With vf_coef = ent_coef = 0 the total must equal the clipped policy loss "
                  "-mean(min(r A, clip(r, 1 - eps, 1 + eps) A)); expected {expected}, got {got}.",
                  applies=lambda ex: ex.hyper.get("vf_coef") == 0 and ex.hyper.get("ent_coef") == 0, fields=("loss",)),
            Check("coefficients", "vf_coef and ent_coef are applied to the right terms",
                  "The total is policy + vf_coef * value - ent_coef * entropy term, so each coefficient scales "
                  "its own term: {detail}.", relation="coefficients", compare=_coefficients),
            Check("defaults", "defaults clip_eps 0.2, vf_coef 0.5, ent_coef 0.01",
                  "Called without the hyperparameters your function must behave as with clip_eps = 0.2, "
                  "vf_coef = 0.5 and ent_coef = 0.01 passed: {detail}.",
                  relation="defaults", compare=relation_compare("implicit", "explicit", "called without them",
                                                                "with the defaults passed")),
            Check("matches-reference", "the total matches the reference on random batches",
                  "Your total loss differs from the reference: expected {expected}, got {got}.", fields=("loss",)),
            *self.gradient_checks(),
        ]


SPEC = TotalLossSpec()
