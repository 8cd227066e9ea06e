"""Checker spec of the `value-loss` drill: ppo_value_loss(values, old_values, returns, clip_eps=0.2) =
0.5 * mean(max((V - R)^2, (V_old + clip(V - V_old, -eps, eps) - R)^2)); only `values` takes gradient."""
from __future__ import annotations

import numpy as np

from checker.reference import value_loss
from checker.specs.base import Check, Example, close, relation_compare
from checker.specs.losses import LossSpec, draw_array, draw_shape, grid, single_element


def _eps(ex: Example) -> float:
    return ex.hyper.get("clip_eps", 0.2)


def _moves_inside(ex: Example) -> bool:
    return bool((np.abs(ex.arrays["values"] - ex.arrays["old_values"]) <= _eps(ex) - 1e-9).all())


def _moves_outside(ex: Example) -> bool:
    return bool((np.abs(ex.arrays["values"] - ex.arrays["old_values"]) > _eps(ex) + 1e-9).all())


SCALE_OLD = [0.5, -1.0, 2.0, 0.25]
SCALE_U = [1.5, -2.0, 0.5, 3.0]    # values = old + eps * u
SCALE_W = [3.0, -1.0, -2.0, 0.5]   # returns = old + eps * w
SCALE_EPS = (0.1, 0.2, 0.4)  # a geometric sequence


def _band_scales(got: dict, where=None) -> str | None:
    """With values = old + eps u and returns = old + eps w, every distance the loss measures (the move, the
    errors, the band) scales with eps, so the loss is homogeneous in eps: L(2 eps) / L(eps) is the same for
    every eps, whatever the degree (2 for a squared error; the check does not assume it, so an answer whose
    error is wrong but whose band follows clip_eps passes)."""
    roles = [f"eps-{e}" for e in SCALE_EPS]
    if any(got.get(r) is None for r in roles):
        return None
    a, b, c = (float(got[r]["loss"]) for r in roles)
    e1, e2, e3 = SCALE_EPS
    with np.errstate(all="ignore"):
        q1, q2 = np.float64(b) / np.float64(a), np.float64(c) / np.float64(b)
    if np.isfinite(q1) and np.isfinite(q2) and close(np.asarray(q1), np.asarray(q2)):
        return None
    return (f"with values = old_values + clip_eps * u and returns = old_values + clip_eps * w (u = {SCALE_U}, "
            f"w = {SCALE_W}), your loss is {a:.6g}, {b:.6g}, {c:.6g} with clip_eps = {e1}, {e2}, {e3}: doubling "
            f"clip_eps and every distance with it multiplies it by {q1:.6g}, then by {q2:.6g}, where a band that "
            f"follows clip_eps scales it by the same factor")


def value_kinks(v, old, ret, eps) -> np.ndarray:
    """Where the clipped value loss is not differentiable: a move of exactly eps, or the two squared errors
    equal (the max may take either branch)."""
    move = v - old
    clipped = old + np.clip(move, -eps, eps)
    edge = np.abs(np.abs(move) - eps) <= 1e-9
    tie = (np.abs((v - ret) ** 2 - (clipped - ret) ** 2) <= 1e-12) & (np.abs(move) > eps)
    return edge | tie


class ValueLossSpec(LossSpec):
    drill_id = "value-loss"
    function = "ppo_value_loss"
    positional = ("values", "old_values", "returns")
    roles = {"old_values": ("old_values",), "returns": ("returns",)}
    hyper_defaults = {"clip_eps": 0.2}
    trainable = ("values",)
    constants = ("old_values", "returns")

    def strategy(self, framework: str):
        from hypothesis import strategies as st

        @st.composite
        def draw(draw):
            # a third of the batches are single elements or stay inside the band: diagnosis axes of their own
            kind = draw(st.sampled_from(["mixed", "mixed", "mixed", "mixed", "single", "inside"]))
            shape = draw_shape(draw, framework, single=kind == "single")
            eps = draw(st.sampled_from([0.2, 0.2, 0.1, 0.5]))
            old = draw_array(draw, grid(-2.0, 2.0, 0.125), shape)
            reach = 0.0625 if kind == "inside" and eps == 0.1 else (0.125 if kind == "inside" else 0.75)
            move = draw_array(draw, grid(-reach, reach, 0.0625), shape)
            ret = draw_array(draw, grid(-3.0, 3.0, 0.25), shape)
            return Example({"values": old + move, "old_values": old, "returns": ret}, {"clip_eps": eps})
        return draw()

    def edge_cases(self, framework: str) -> list[Example]:
        def ex(v, old, ret, label, **hyper):
            arrays = {k: np.asarray(x, dtype=np.float64) for k, x in
                      (("values", v), ("old_values", old), ("returns", ret))}
            if framework == "torch":
                arrays = {k: x[None] for k, x in arrays.items()}
            return Example(arrays, hyper, f"edge: {label}")

        return [
            ex([1.0, 1.0], [0.0, 0.0], [2.0, 0.5], "the worked example (loss 0.8725)", clip_eps=0.2),
            ex([0.1, -0.1, 0.15], [0.0, 0.0, 0.0], [1.0, -1.0, 0.5], "every move inside the band", clip_eps=0.2),
            ex([1.0, -1.0, 0.5], [0.0, 0.0, 0.0], [2.0, -2.0, 1.5], "moved past the band towards the return",
               clip_eps=0.2),
            ex([1.0, -1.0, 0.5], [0.0, 0.0, 0.0], [0.5, -0.5, 0.25], "moved past the return", clip_eps=0.2),
            ex([2.0, 3.0], [1.0, 1.0], [1.0, 4.0], "V_old far from 0", clip_eps=0.2),
            ex([1.0, -1.0, 0.5], [0.0, 0.0, 0.0], [2.0, -2.0, 1.5], "clip_eps = 0.5", clip_eps=0.5),
            ex([0.5], [0.0], [0.5], "T = 1, V equals R", clip_eps=0.2),
            ex([0.25, -0.25, 1.0], [0.0, 0.0, 0.5], [1.0, 0.5, -1.0], "moves exactly eps (the kink)", clip_eps=0.25),
            # single elements in each regime: a slip in the reduction leaves the per-element formula visible
            ex([1.0], [0.0], [2.0], "one element moved past the band towards the return", clip_eps=0.2),
            ex([1.0], [0.0], [0.5], "one element moved past the return", clip_eps=0.2),
            ex([0.125], [0.0], [1.5], "one element inside the band", clip_eps=0.2),
            ex([2.5], [1.0], [4.0], "one element, V_old far from 0", clip_eps=0.5),
            ex([-1.0], [0.5], [-2.0], "one element moved down past the band", clip_eps=0.2),
        ] + [
            Example(x.arrays, x.hyper, f"edge: moves of clip_eps * u with clip_eps = {e}", relation=("band-scale", f"eps-{e}"))
            for e in SCALE_EPS
            for x in [ex([o + e * u for o, u in zip(SCALE_OLD, SCALE_U)], SCALE_OLD,
                         [o + e * w for o, w in zip(SCALE_OLD, SCALE_W)], "", clip_eps=e)]
        ] + self.defaults_pair(ex([1.0, -1.0, 0.5], [0.0, 0.0, 0.0], [2.0, 0.5, 1.5], "").arrays, "default clip_eps")

    def reference_loss(self, t: dict, hyper: dict):
        return value_loss(t["values"], t["old_values"], t["returns"], clip=hyper["clip_eps"])

    def example_classes(self):
        return [("single", "on single elements", single_element),
                ("inside", "where every move stays inside the band", _moves_inside)]

    def kinks(self, ex: Example) -> dict:
        return {"values": value_kinks(ex.arrays["values"], ex.arrays["old_values"], ex.arrays["returns"], _eps(ex))}

    def checks(self) -> list[Check]:
        return [
            Check("inside-band-mse", "when every move stays inside the band, the loss is 0.5 mean((V - R)^2)",
                  "When every |values - old_values| <= eps the clipped prediction equals the prediction, so the loss "
                  "must be 0.5 * mean((values - returns)^2); expected {expected}, got {got}.",
                  applies=_moves_inside, fields=("loss",)),
            Check("pessimistic-max", "outside the band, the loss takes the max of the two squared errors",
                  "When V moved more than eps from old_values, the loss must take max((V - R)^2, "
                  "(old_values + clip(V - old_values, -eps, eps) - R)^2) per element, then 0.5 * mean; "
                  "expected {expected}, got {got}.",
                  applies=_moves_outside, fields=("loss",)),
            Check("clip-eps", "the band follows clip_eps",
                  "The prediction may move at most clip_eps from old_values for every clip_eps, so the loss scales "
                  "by one factor when clip_eps and every distance double: {detail}.",
                  relation="band-scale", compare=_band_scales),
            Check("defaults", "default clip_eps = 0.2",
                  "Called without clip_eps your function must behave as with clip_eps=0.2 passed: {detail}.",
                  relation="defaults", compare=relation_compare("implicit", "explicit", "called without clip_eps",
                                                                "with clip_eps=0.2 passed")),
            Check("matches-reference", "the loss matches the reference on random batches",
                  "Your loss differs from the reference: expected {expected}, got {got}.", fields=("loss",)),
            *self.gradient_checks(),
        ]


SPEC = ValueLossSpec()
