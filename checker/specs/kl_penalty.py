"""Checker spec of the `kl-penalty` drill (PyTorch): kl_penalty_iteration(new_logp, old_logp, advantages, kl,
beta=1.0, kl_target=0.01) -> (losses, new_beta), PPO's adaptive-KL-penalty variant (Schulman et al. 2017,
§4, eq. 8): per-minibatch losses -mean(ratio * A) + beta * mean(KL) with one beta for the whole
iteration, then beta doubled when the iteration's mean KL exceeds 1.5 * target and halved when it is
below target / 1.5."""
from __future__ import annotations

import numpy as np
import torch

from checker.specs.base import Check, Example, contract_check, relation_compare
from checker.specs.losses import draw_array, grid
from checker.specs.pref_base import NamedOutputsSpec

WORKED = {"new_logp": [[-0.9, -1.2], [-0.5, -2.0]], "old_logp": [[-1.0, -1.0], [-0.5, -1.8]],
          "advantages": [[1.0, -0.5], [2.0, 1.0]], "kl": [[0.02, 0.012], [0.03, 0.02]]}


def _hyper(ex: Example) -> tuple[float, float]:
    return float(ex.hyper.get("beta", 1.0)), float(ex.hyper.get("kl_target", 0.01))


def _side(value: float, target: float) -> str:
    return "high" if value > 1.5 * target else ("low" if value < target / 1.5 else "band")


def _mean_side(ex: Example) -> str:
    return _side(float(ex.arrays["kl"].mean()), _hyper(ex)[1])


def _on_threshold(ex: Example) -> bool:
    """The iteration's mean KL lands exactly on 1.5 * target or target / 1.5 (where >= or <= differ)."""
    d, t = float(ex.arrays["kl"].mean()), _hyper(ex)[1]
    return ex.invalid is None and (d == 1.5 * t or d == t / 1.5)


def _minibatch_sides(ex: Example) -> set[str]:
    return {_side(float(row.mean()), _hyper(ex)[1]) for row in ex.arrays["kl"]}


class KlPenaltySpec(NamedOutputsSpec):
    drill_id = "kl-penalty"
    function = "kl_penalty_iteration"
    positional = ("new_logp", "old_logp", "advantages", "kl")
    roles = {"new_logp": ("new_logp",), "old_logp": ("old_logp",), "logp_extremes": True, "advantages": ("advantages",),
             "strict_comparisons": "beta doubles when the mean KL is > 1.5 * kl_target and halves when it is "
                                   "< kl_target / 1.5",
             "card:strict-comparison": "klpen-adaptive-rule"}
    hyper_defaults = {"beta": 1.0, "kl_target": 0.01}
    trainable = ("new_logp", "kl")
    constants = ("old_logp", "advantages")
    grad_of = "0"
    grad_field = "losses"
    output_fields = ("losses", "new_beta")

    def strategy(self, framework: str):
        from hypothesis import strategies as st

        @st.composite
        def draw(draw):
            M, N = draw(st.integers(1, 3)), draw(st.integers(1, 5))
            old = draw_array(draw, grid(-3.0, -0.25, 0.125), (M, N))
            new = old + draw_array(draw, grid(-0.5, 0.5, 0.0625), (M, N))
            adv = draw_array(draw, grid(-2.0, 2.0, 0.25), (M, N))
            target = draw(st.sampled_from([0.01, 0.01, 0.02, 0.005]))
            kl = draw_array(draw, grid(0.0, 4.0, 0.25), (M, N)) * target
            hyper = {}
            if draw(st.integers(0, 3)):
                hyper["kl_target"] = target
            else:
                kl = kl / target * 0.01
            beta = draw(st.sampled_from(["default", 1.0, 0.5, 3.0]))
            if beta != "default":
                hyper["beta"] = beta
            t = hyper.get("kl_target", 0.01)
            for edge in (1.5 * t, t / 1.5):  # keep the iteration mean clear of the strict thresholds
                if abs(kl.mean() - edge) < 1e-6 * t:
                    kl[0, 0] += 0.25 * t * kl.size
            for row in kl:
                for edge in (1.5 * t, t / 1.5):
                    if abs(row.mean() - edge) < 1e-6 * t:
                        row[0] += 0.125 * t
            return Example({"new_logp": new, "old_logp": old, "advantages": adv, "kl": kl}, hyper)
        return draw()

    def edge_cases(self, framework: str) -> list[Example]:
        f = lambda x: np.asarray(x, dtype=np.float64)  # noqa: E731
        worked = {k: f(v) for k, v in WORKED.items()}

        def ex(kl, label, **hyper):
            M, N = np.asarray(kl).shape
            rng = np.random.default_rng(M * 10 + N)
            old = np.round(rng.uniform(-2.0, -0.5, (M, N)), 2)
            new = np.round(old + rng.uniform(-0.3, 0.3, (M, N)), 2)
            adv = np.round(rng.uniform(-1.5, 1.5, (M, N)), 2)
            return Example({"new_logp": new, "old_logp": old, "advantages": adv, "kl": f(kl)}, hyper, f"edge: {label}")

        ok = [
            Example(dict(worked), {}, "edge: worked example, defaults"),
            Example({**worked, "kl": f([[0.002, 0.004], [0.001, 0.005]])}, {"beta": 2.0},
                    "edge: worked example, KL below target / 1.5"),
            Example({**worked, "kl": f([[0.01, 0.012], [0.008, 0.01]])}, {}, "edge: worked example, KL in the band"),
            ex([[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]], "no KL (loss is the surrogate alone)"),
            ex([[0.03, 0.02], [0.001, 0.0]], "minibatch KLs on both sides of the band, mean above it"),
            ex([[0.001, 0.002], [0.03, 0.04], [0.0, 0.001]], "minibatch KLs on both sides of the band, mean in it"),
            ex([[0.02, 0.04, 0.03]], "a single minibatch far above the target", beta=0.5, kl_target=0.01),
            ex([[0.05, 0.06], [0.07, 0.04]], "KL above target with kl_target = 0.03", kl_target=0.03),
            ex([[0.01], [0.011], [0.009]], "every minibatch in the band", beta=3.0),
            # log-probs near -1000 (exp underflows to 0, the ratio is ordinary), twice
            Example({**worked, "new_logp": worked["new_logp"] - 1000.0, "old_logp": worked["old_logp"] - 1000.0}, {},
                    "edge: the worked example's log-probs shifted to near -1000"),
            Example({"new_logp": f([[-1000.25, -999.5, -1001.0]]), "old_logp": f([[-1000.0, -1000.0, -1000.5]]),
                     "advantages": f([[1.0, -0.5, 2.0]]), "kl": f([[0.01, 0.02, 0.005]])}, {"beta": 0.5},
                    "edge: one minibatch of log-probs near -1000"),
            # the mean KL exactly on each threshold (kl_target = 1.5: the thresholds are 2.25 and 1.0, exact in
            # floating point, and so is the mean of equal KLs), twice each: both comparisons are strict
            ex([[2.25, 2.25], [2.25, 2.25]], "mean KL exactly 1.5 * kl_target", kl_target=1.5),
            ex([[2.25, 2.25, 2.25]], "mean KL exactly 1.5 * kl_target, one minibatch", beta=0.5, kl_target=1.5),
            ex([[1.0, 1.0], [1.0, 1.0]], "mean KL exactly kl_target / 1.5", kl_target=1.5),
            ex([[1.0], [1.0], [1.0]], "mean KL exactly kl_target / 1.5, three minibatches", beta=3.0,
               kl_target=1.5),
        ]
        z = lambda *shape: np.zeros(shape)  # noqa: E731
        bad = [("inputs of different shapes", {"new_logp": z(2, 2), "old_logp": z(2, 2), "advantages": z(2, 3),
                                               "kl": z(2, 2)}, {}),
               ("1-D inputs", {k: z(3) for k in WORKED}, {}),
               ("a non-positive kl_target", {k: z(1, 2) for k in WORKED}, {"kl_target": 0.0}),
               ("a negative beta", {k: z(1, 2) for k in WORKED}, {"beta": -1.0})]
        ok += self.defaults_pair(ok[0].arrays, "worked example")
        return ok + [Example(a, h, f"contract: {what}", invalid=what) for what, a, h in bad]

    def reference_outputs(self, t: dict, hyper: dict) -> dict:
        new, old, adv, kl = t["new_logp"], t["old_logp"], t["advantages"], t["kl"]
        beta, target = hyper["beta"], hyper["kl_target"]
        if new.dim() != 2 or not (new.shape == old.shape == adv.shape == kl.shape) or new.numel() == 0:
            raise ValueError("inputs must be [M, N] of one shape")
        if not target > 0 or not beta >= 0:
            raise ValueError("kl_target must be positive and beta non-negative")
        ratio = torch.exp(new - old)
        losses = -(ratio * adv).mean(-1) + beta * kl.mean(-1)
        d = float(kl.detach().mean())
        new_beta = beta * 2.0 if d > 1.5 * target else (beta / 2.0 if d < target / 1.5 else beta)
        return {"losses": losses, "new_beta": torch.tensor(new_beta, dtype=torch.float64)}

    def extract(self, value, ex: Example, framework: str) -> dict:
        losses, new_beta = self.tuple_of(value, 2, "kl_penalty_iteration must return (losses, new_beta)")
        M = ex.arrays["kl"].shape[0]
        return {"losses": self.array(losses, "torch", (M,), "losses", "one loss per minibatch"),
                "new_beta": self.number(new_beta, "new_beta")}

    def checks(self) -> list[Check]:
        valid = lambda ex: ex.invalid is None  # noqa: E731
        return [
            contract_check("invalid inputs raise ValueError"),
            Check("worked-example", "reproduces the prompt's worked example",
                  "On the prompt's {label}, your {field} is {got}{at}; it must be {expected}.",
                  applies=lambda ex: ex.label.startswith("edge: worked example"), fields=("losses", "new_beta")),
            Check("surrogate", "without KL each loss is -mean(ratio * A) of its minibatch",
                  "With kl = 0 each minibatch's loss is the negated surrogate -mean(exp(new - old) * A); your "
                  "losses{at} are {got}, expected {expected}.",
                  applies=lambda ex: valid(ex) and not ex.arrays["kl"].any(), fields=("losses",)),
            Check("penalty", "the penalty beta * mean(KL) is added to the loss",
                  "L^KLPEN is maximised, so the loss to minimise is -mean(ratio * A) + beta * mean(KL); with "
                  "every KL in the band your losses{at} are {got}, expected {expected}.",
                  applies=lambda ex: bool(valid(ex) and ex.arrays["kl"].any() and _minibatch_sides(ex) == {"band"}
                  and _mean_side(ex) == "band"), fields=("losses",)),
            Check("losses-use-this-beta", "every minibatch's loss uses the beta passed in",
                  "beta is updated after the iteration, so all of this iteration's losses use the beta it was "
                  "called with ({beta}); on {label}, your losses{at} are {got}, expected {expected}.",
                  applies=lambda ex: bool(valid(ex) and _mean_side(ex) != "band" and ex.arrays["kl"].any()),
                  fields=("losses",)),
            Check("beta-doubles", "beta doubles when the mean KL exceeds 1.5 * target",
                  "The iteration's mean KL is above 1.5 * kl_target, so beta must double; expected {expected}, got "
                  "{got}.", applies=lambda ex: valid(ex) and _mean_side(ex) == "high", fields=("new_beta",)),
            Check("beta-halves", "beta halves when the mean KL is below target / 1.5",
                  "The iteration's mean KL is below kl_target / 1.5, so beta must halve; expected {expected}, got "
                  "{got}.", applies=lambda ex: valid(ex) and _mean_side(ex) == "low", fields=("new_beta",)),
            Check("beta-kept-in-band", "beta stays when the mean KL is within [target / 1.5, 1.5 * target]",
                  "The iteration's mean KL is within [kl_target / 1.5, 1.5 * kl_target], so beta must stay; "
                  "expected {expected}, got {got}.",
                  applies=lambda ex: valid(ex) and _mean_side(ex) == "band" and not _on_threshold(ex),
                  fields=("new_beta",)),
            Check("thresholds-strict",
                  "beta stays when the mean KL is exactly on a threshold (both comparisons strict)",
                  "Beta doubles only when the mean KL is strictly above 1.5 * kl_target and halves only when it is "
                  "strictly below kl_target / 1.5; on {label}, it is exactly on the threshold, so beta must stay: "
                  "expected {expected}, got {got}.", applies=_on_threshold, fields=("new_beta",)),
            Check("once-per-iteration", "beta is updated once, from the mean KL of the whole iteration",
                  "On {label}, the minibatches' KLs fall on different sides of the band; beta is updated once, "
                  "from the mean over the whole iteration: expected new_beta {expected}, got {got}.",
                  applies=lambda ex: valid(ex) and len(_minibatch_sides(ex)) > 1, fields=("new_beta",)),
            Check("defaults", "default beta = 1.0 and kl_target = 0.01",
                  "Called without beta and kl_target your function must behave as with beta=1.0 and "
                  "kl_target=0.01 passed: {detail}.", relation="defaults", compare=relation_compare(
                      "implicit", "explicit", "called without them", "with beta=1.0, kl_target=0.01 passed")),
            Check("matches-reference", "losses and new_beta match the reference on random iterations",
                  "Your {field} differs from the reference{at}: expected {expected}, got {got}.",
                  fields=("losses", "new_beta")),
            *self.gradient_checks(),
        ]


SPEC = KlPenaltySpec()
