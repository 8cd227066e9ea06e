"""Checker spec of the `policy-loss` drill: ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2),
the mean over all elements of -min(r A, clip(r, 1 - eps, 1 + eps) A). NumPy [T]; PyTorch [B, T]."""
from __future__ import annotations

import numpy as np

from checker.reference import policy_loss
from checker.specs.base import Check, Example, close, relation_compare
from checker.specs.losses import LossSpec, draw_array, draw_shape, grid, single_element


def _ratio(ex: Example) -> np.ndarray:
    return np.exp(ex.arrays["new_logp"] - ex.arrays["old_logp"])


def _eps(ex: Example) -> float:
    return ex.hyper.get("clip_eps", 0.2)


def _inside(ex: Example) -> bool:
    r = _ratio(ex)
    return bool((np.abs(r - 1) < _eps(ex) - 1e-9).all())


def _beyond(ex: Example) -> bool:
    """Every token sits where the clip matters: A > 0 above the band or A < 0 below it."""
    r, a, e = _ratio(ex), ex.arrays["advantages"], _eps(ex)
    return bool((((a > 0) & (r > 1 + e + 1e-9)) | ((a < 0) & (r < 1 - e - 1e-9))).all())


# The clip_eps relation: every ratio far outside every band tried (or well inside), both signs of A, so
# whichever way an answer forms its ratio, its clipped terms sit at a band edge 1 +- eps for every eps.
BAND_R = [4.0, 0.25, 4.0, 0.25, 1.05]
BAND_A = [1.0, -1.0, -2.0, 0.5, 2.0]  # unequal sizes: no two clipped terms cancel
BAND_EPS = (0.1, 0.2, 0.3)


def _band_moves(got: dict, where=None) -> str | None:
    """With ratios far outside the band, the clipped terms sit at 1 +- eps: the loss must change with
    clip_eps, and by equal steps for equal steps of clip_eps (the band edge moves linearly). Tested on the
    answer's own losses, so an answer that forms its ratio or its surrogate wrongly, but clips at
    1 +- clip_eps, passes."""
    roles = [f"eps-{e}" for e in BAND_EPS]
    if any(got.get(r) is None for r in (*roles, "ratio-one")):
        return None
    lo, mid, hi = (float(got[r]["loss"]) for r in roles)
    e1, e2, e3 = BAND_EPS
    where = f"with ratios {BAND_R} and A = {BAND_A}"
    if close(np.asarray(lo), np.asarray(hi)) and close(np.asarray(lo), np.asarray(float(got["ratio-one"]["loss"]))):
        return None  # the loss does not respond to the log-probs at all: no band can show (other checks speak)
    if close(np.asarray(lo), np.asarray(hi)):
        return (f"{where} your loss is {lo:.6g} with clip_eps = {e1} and {hi:.6g} with clip_eps = {e3}: the clipped "
                f"terms do not move with the band")
    if not close(np.asarray(mid - lo), np.asarray(hi - mid)):
        return (f"{where} your loss is {lo:.6g}, {mid:.6g}, {hi:.6g} with clip_eps = {e1}, {e2}, {e3}: equal steps of "
                f"clip_eps must move the loss by equal steps, since a clipped term is (1 +- clip_eps) A")
    return None


class PolicyLossSpec(LossSpec):
    drill_id = "policy-loss"
    function = "ppo_policy_loss"
    positional = ("new_logp", "old_logp", "advantages")
    roles = {"new_logp": ("new_logp",), "old_logp": ("old_logp",), "logp_extremes": True, "advantages": ("advantages",)}
    hyper_defaults = {"clip_eps": 0.2}
    trainable = ("new_logp",)
    constants = ("old_logp", "advantages")

    def strategy(self, framework: str):
        from hypothesis import strategies as st

        @st.composite
        def draw(draw):
            # a sixth of the batches are single elements: a diagnosis axis of their own
            single = draw(st.sampled_from([False] * 5 + [True]))
            shape = draw_shape(draw, framework, single=single)
            old = draw_array(draw, grid(-3.0, -0.125, 0.125), shape)
            log_ratio = draw_array(draw, grid(-0.75, 0.75, 0.0625), shape)
            adv = draw_array(draw, grid(-2.0, 2.0, 0.25), shape)
            eps = draw(st.sampled_from([0.2, 0.2, 0.1, 0.3]))
            return Example({"new_logp": old + log_ratio, "old_logp": old, "advantages": adv}, {"clip_eps": eps})
        return draw()

    def edge_cases(self, framework: str) -> list[Example]:
        def ex(ratios, adv, label, old=None, log_ratio=None, **hyper):
            r = np.asarray(ratios, dtype=np.float64)
            o = np.full_like(r, -1.0) if old is None else np.asarray(old, dtype=np.float64)
            a = np.asarray(adv, dtype=np.float64)
            # log-ratios on a 1/16 grid keep new - old exact in float32 even near -1000
            new = o + (np.log(r) if log_ratio is None else np.asarray(log_ratio, dtype=np.float64))
            if framework == "torch":
                new, o, a = new[None], o[None], a[None]
            return Example({"new_logp": new, "old_logp": o, "advantages": a}, hyper, f"edge: {label}")

        rho = [1.5, 1.5, 0.5, 0.5, 5.0, 1.0]
        adv = [1.0, -1.0, 1.0, -1.0, -1.0, 2.0]
        cases = [
            ex([1.0, 1.0, 1.0], [1.0, -2.0, 0.5], "new == old (every ratio 1)", clip_eps=0.2),
            ex([1.1, 0.9, 1.05], [1.0, -1.0, 2.0], "every ratio inside the band", clip_eps=0.2),
            ex([1.5, 2.0, 1.3], [1.0, 0.5, 2.0], "every ratio above the band, A > 0", clip_eps=0.2),
            ex([0.5, 0.6, 0.7], [-1.0, -0.5, -2.0], "every ratio below the band, A < 0", clip_eps=0.2),
            ex([1.5, 2.0, 0.5], [-1.0, -0.5, 1.0], "outside the band on the side the min keeps", clip_eps=0.2),
            ex([1.5, 0.5, 1.0], [0.0, 0.0, 0.0], "A = 0", clip_eps=0.2),
            ex(rho, adv, "the worked example (loss 0.6)", clip_eps=0.2),
            ex([1.15, 0.85, 1.25], [1.0, -1.0, 1.0], "clip_eps = 0.1", clip_eps=0.1),
            ex([1.25, 0.75, 1.35], [1.0, -1.0, 1.0], "clip_eps = 0.3", clip_eps=0.3),
            ex([1.3], [1.0], "T = 1", clip_eps=0.2),
            ex([4.0, 8.0, 0.25, 6.0], [-1.0, -0.5, 1.0, 2.0], "ratios far outside the band", clip_eps=0.2),
            ex([12.0, 20.0, 7.0, 1.0], [-1.0, -2.0, -0.5, 1.0], "huge ratios with A < 0", clip_eps=0.2),
            ex([2.5, 16.0, 0.5], [-1.5, -1.0, 2.0], "large ratios on both sides", clip_eps=0.1),
            # single elements in each regime: a slip in the reduction leaves the per-element formula visible
            ex([1.5], [1.0], "one element above the band, A > 0", clip_eps=0.2),
            ex([0.5], [-1.0], "one element below the band, A < 0", clip_eps=0.2),
            ex([2.0], [-0.5], "one element above the band, A < 0", clip_eps=0.2),
            ex([1.1], [2.0], "one element inside the band", clip_eps=0.2),
            ex([0.25], [1.5], "one element below the band, A > 0", clip_eps=0.1),
            ex([1.0] * 4, [2.0, -1.0, 1.0, 0.5], "log-probs near -800", old=[-800.0, -810.0, -805.0, -790.0],
               log_ratio=[0.0625, -0.375, 0.3125, 0.0], clip_eps=0.2),
        ]
        for eps in BAND_EPS:
            e = ex(BAND_R, BAND_A, "", clip_eps=eps)
            cases.append(Example(e.arrays, dict(e.hyper), f"edge: ratios far outside the band with clip_eps = {eps}",
                                 relation=("band-moves", f"eps-{eps}")))
        e = ex([1.0] * len(BAND_A), BAND_A, "", clip_eps=0.2)
        cases.append(Example(e.arrays, dict(e.hyper), "edge: the same advantages with every ratio 1",
                             relation=("band-moves", "ratio-one")))
        base = ex([1.5, 0.5, 1.1], [1.0, -1.0, 1.0], "default clip_eps")
        cases += self.defaults_pair(base.arrays, "default clip_eps")
        for role, shift in (("unshifted", 0.0), ("shifted", -1000.0)):
            e = ex([1.0] * 3, [1.0, 1.0, -1.0], "", log_ratio=[0.125, -0.0625, 0.375], clip_eps=0.2)
            arrays = {**e.arrays, "new_logp": e.arrays["new_logp"] + shift, "old_logp": e.arrays["old_logp"] + shift}
            cases.append(Example(arrays, dict(e.hyper), "edge: log-probs near -1000 (exp underflows)" if shift else
                                 "edge: the same log-probs near -1", relation=("log-shift", role)))
        if framework == "torch":
            cases.append(Example({"new_logp": np.log([[1.5], [0.5], [1.1]]) - 1.0,
                                  "old_logp": np.full((3, 1), -1.0),
                                  "advantages": np.array([[1.0], [-1.0], [0.5]])}, {"clip_eps": 0.2},
                                 "edge: single-token rows"))
        return cases

    def reference_loss(self, t: dict, hyper: dict):
        return policy_loss(t["new_logp"], t["old_logp"], t["advantages"], clip_low=hyper["clip_eps"])[0]

    def example_classes(self):
        return [("single", "on single elements", single_element)]

    def kinks(self, ex: Example) -> dict:
        """The band edges: a ratio exactly 1 +- eps (clamp and min/max pick different subgradients there)."""
        r, e = _ratio(ex), _eps(ex)
        return {"new_logp": (np.abs(r - (1 + e)) <= 1e-9) | (np.abs(r - (1 - e)) <= 1e-9),
                "advantages": ex.arrays["advantages"] == 0}  # min(rA, clip(r)A) has a kink in A at A = 0

    def grad_hint(self, name: str) -> str:
        return (" On tokens where the clip is active (A > 0 with ratio > 1 + eps, A < 0 with ratio < 1 - eps) it "
                "must be exactly 0; elsewhere it is -A * ratio / N.")

    def checks(self) -> list[Check]:
        return [
            Check("ratio-one", "when new == old, the loss is -mean(A)",
                  "When new_logp == old_logp every ratio is 1 and the loss must be -mean(advantages); "
                  "expected {expected}, got {got}.",
                  applies=lambda ex: bool((ex.arrays["new_logp"] == ex.arrays["old_logp"]).all()), fields=("loss",)),
            Check("inside-band", "inside the band, the loss is the unclipped surrogate -mean(r A)",
                  "With every ratio inside [1 - eps, 1 + eps] nothing is clipped, so the loss must equal "
                  "-mean(ratio * A) with ratio = exp(new_logp - old_logp); expected {expected}, got {got}.",
                  applies=_inside, fields=("loss",)),
            Check("clip-side", "outside the band, the min keeps the clipped term on the side the advantage pushes",
                  "For A > 0 the objective must stop growing at ratio = 1 + eps, for A < 0 at ratio = 1 - eps: "
                  "take the min of ratio * A and clip(ratio, 1 - eps, 1 + eps) * A, then negate the mean; "
                  "expected {expected}, got {got}.",
                  applies=_beyond, fields=("loss",)),
            Check("clip-eps", "the band follows clip_eps",
                  "The band must be [1 - clip_eps, 1 + clip_eps] for every clip_eps, so where the clip is active "
                  "the loss follows clip_eps: {detail}.",
                  relation="band-moves", compare=_band_moves),
            Check("underflow", "log-probs shifted to near -1000 give the same loss (the ratio is taken in log space)",
                  "Shifting both log-probs by the same constant leaves every ratio unchanged, yet {detail}: with "
                  "log-probs near -1000, exp(logp) underflows to 0, so the ratio must be exp(new_logp - old_logp).",
                  relation="log-shift", compare=relation_compare("shifted", "unshifted", "with log-probs near -1000",
                                                                 "with the same log-probs near -1")),
            Check("defaults", "default clip_eps = 0.2",
                  "Called without clip_eps your function must behave as with clip_eps=0.2 passed: {detail}.",
                  relation="defaults", compare=relation_compare("implicit", "explicit", "called without clip_eps",
                                                                "with clip_eps=0.2 passed")),
            Check("matches-reference", "the loss matches the reference on random batches",
                  "Your loss differs from the reference: expected {expected}, got {got}.", fields=("loss",)),
            *self.gradient_checks(),
        ]


SPEC = PolicyLossSpec()
