"""Checker spec of the `bt-loss` drill: bradley_terry_loss(r_chosen, r_rejected, margin=0.0) =
mean over pairs of -log sigmoid(r_chosen - r_rejected - margin), the reward-model loss of InstructGPT
(Ouyang et al. 2022, eq. 1) with the margin of Llama 2 (Touvron et al. 2023, eq. 2)."""
from __future__ import annotations

import math

import numpy as np
import torch

from checker.specs.base import (
    Check,
    Example,
    contract_check,
    relation_compare,
    relation_same_on,
)
from checker.specs.losses import draw_array, grid
from checker.specs.pref_base import NamedOutputsSpec

WORKED_CHOSEN = [2.0, 0.5, -1.0]
WORKED_REJECTED = [1.0, 1.5, -3.0]
LOG2 = math.log(2.0)


def _margin(ex: Example) -> float:
    return float(ex.hyper.get("margin", 0.0))


def _gaps(ex: Example) -> np.ndarray:
    return ex.arrays["r_chosen"] - ex.arrays["r_rejected"] - _margin(ex)


def _large(ex: Example) -> bool:
    return ex.label.startswith("edge: large margins")


def _orientation(ex: Example, got: dict) -> str | None:
    """A loss below log 2 exactly when the chosen responses score above the rejected ones (margin
    included): every pair contributes softplus(-gap), which is < log 2 for a positive gap."""
    gaps = _gaps(ex)
    loss = float(got["loss"])
    if (gaps > 0.25).all() and not loss < LOG2:
        return (f"every chosen reward exceeds its rejected one (by more than the margin), so each pair's "
                f"-log sigmoid is below log 2 = 0.693147, yet your loss is {loss:.6g}")
    if (gaps < -0.25).all() and not loss > LOG2:
        return (f"every rejected reward exceeds its chosen one, so each pair's -log sigmoid is above "
                f"log 2 = 0.693147, yet your loss is {loss:.6g}")
    return None


class BradleyTerrySpec(NamedOutputsSpec):
    drill_id = "bt-loss"
    function = "bradley_terry_loss"
    positional = ("r_chosen", "r_rejected")
    roles = {"probability_underflow": True, "card:log-of-probability": "pref-log-sigmoid-stable"}
    hyper_defaults = {"margin": 0.0}
    trainable = ("r_chosen", "r_rejected")
    constants = ()
    grad_of = ""
    output_fields = ("loss",)

    def underflow(self, ex: Example, framework: str) -> dict:
        """Where log(sigmoid(gap)) (with or without an epsilon) loses the value: pairs whose gap is below
        -10, the loss and those pairs' gradients."""
        if ex.invalid is not None:
            return {}
        gap = ex.arrays["r_chosen"] - ex.arrays["r_rejected"] - float(ex.hyper.get("margin", 0.0))
        low = gap < -10.0
        if not low.any():
            return {}
        return {"loss": True, "grad:r_chosen": low, "grad:r_rejected": low}

    def strategy(self, framework: str):
        from hypothesis import strategies as st

        @st.composite
        def draw(draw):
            n = draw(st.integers(1, 8))
            chosen = draw_array(draw, grid(-4.0, 4.0, 0.25), (n,))
            rejected = draw_array(draw, grid(-4.0, 4.0, 0.25), (n,))
            hyper = {}
            margin = draw(st.sampled_from(["default", 0.0, 0.5, 1.0, 2.0]))
            if margin != "default":
                hyper["margin"] = margin
            return Example({"r_chosen": chosen, "r_rejected": rejected}, hyper)
        return draw()

    def edge_cases(self, framework: str) -> list[Example]:
        f = lambda x: np.asarray(x, dtype=np.float64)  # noqa: E731

        def ex(c, r, label, **hyper):
            return Example({"r_chosen": f(c), "r_rejected": f(r)}, hyper, f"edge: {label}")

        ok = [
            ex(WORKED_CHOSEN, WORKED_REJECTED, "worked example, no margin"),
            ex(WORKED_CHOSEN, WORKED_REJECTED, "worked example, margin 0.5", margin=0.5),
            ex([0.0, 0.0], [800.0, -800.0], "large margins: gaps of -800 and +800"),
            ex([-400.0, 3.0], [400.0, 1.0], "large margins: a gap of -800 beside an ordinary pair"),
            ex([0.0], [1000.0], "large margins: one pair, gap -1000"),
            ex([0.0, 0.0], [750.0, 760.0], "large margins: two gaps past exp's range", margin=1.0),
            ex([1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0], "four tied pairs"),
            ex([-2.0, 0.5, 3.0], [-2.0, 0.5, 3.0], "three tied pairs at different rewards"),
            ex([3.0, 2.5, 4.0], [0.0, -1.0, 1.0], "every chosen reward far above its rejected one"),
            ex([0.0, -1.0, 1.0], [3.0, 2.5, 4.0], "every rejected reward far above its chosen one"),
            ex([2.0, 2.0], [1.0, 1.0], "a margin larger than the gap", margin=2.0),
            ex([0.5], [-0.5], "a single pair"),
        ]
        ok += self.defaults_pair(ok[0].arrays, "worked example")
        c, r = f([1.5, -0.5, 2.0]), f([0.5, 0.5, 3.0])
        ok += [Example({"r_chosen": c, "r_rejected": r}, {"margin": 0.75}, "edge: three pairs with margin 0.75",
                       relation=("margin", "margin")),
               Example({"r_chosen": c - 0.75, "r_rejected": r}, {"margin": 0.0},
                       "edge: the same pairs, chosen rewards lowered by 0.75, no margin", relation=("margin", "shifted")),
               Example({"r_chosen": c, "r_rejected": r}, {"margin": 0.5}, "edge: three pairs",
                       relation=("mean", "once")),
               Example({"r_chosen": np.concatenate([c, c]), "r_rejected": np.concatenate([r, r])}, {"margin": 0.5},
                       "edge: the same three pairs twice", relation=("mean", "twice"))]
        z = lambda *shape: np.zeros(shape)  # noqa: E731
        bad = [("r_chosen and r_rejected of different shapes", z(3), z(2)),
               ("an empty batch", z(0), z(0)),
               ("2-D rewards", z(2, 2), z(2, 2))]
        return ok + [Example({"r_chosen": c, "r_rejected": r}, {}, f"contract: {what}", invalid=what)
                     for what, c, r in bad]

    def reference_outputs(self, t: dict, hyper: dict) -> dict:
        c, r = t["r_chosen"], t["r_rejected"]
        if c.shape != r.shape or c.dim() != 1 or c.numel() == 0:
            raise ValueError("r_chosen and r_rejected must be non-empty 1-D arrays of the same shape")
        return {"loss": -torch.nn.functional.logsigmoid(c - r - hyper["margin"]).mean()}

    def extract(self, value, ex: Example, framework: str) -> dict:
        return {"loss": self.scalar(value, framework)}

    def checks(self) -> list[Check]:
        return [
            contract_check("invalid inputs raise ValueError"),
            Check("worked-example", "reproduces the prompt's worked example",
                  "On the prompt's {label}, your loss is {got}; it must be {expected}.",
                  applies=lambda ex: ex.label.startswith("edge: worked example"), fields=("loss",)),
            Check("prefers-chosen", "the loss is small when the chosen responses score higher",
                  "The loss must reward ranking the chosen response above the rejected one: {detail}.",
                  applies=lambda ex: ex.invalid is None and (np.abs(_gaps(ex)) > 0.25).all(),
                  custom=_orientation),
            Check("margin", "the margin is subtracted from the reward gap",
                  "Each pair's term is -log sigmoid(r_chosen - r_rejected - margin), so a margin m must act exactly "
                  "like chosen rewards lowered by m: {detail}.", relation="margin", compare=relation_compare(
                      "margin", "shifted", "with margin 0.75", "with the chosen rewards lowered by 0.75 instead")),
            Check("large-margins", "stays finite and exact where sigmoid underflows",
                  "On {label}, the loss is a plain number ({expected}: -log sigmoid(x) is about -x for a very "
                  "negative gap x); yours is {got}.",
                  applies=_large, fields=("loss",)),
            Check("mean-over-pairs", "the loss is a mean over pairs",
                  "A mean over pairs does not change when every pair appears twice: {detail}.", relation="mean",
                  compare=relation_same_on("once", ("loss",), "with each pair once",
                                           lambda role: "with each pair twice")),
            Check("defaults", "default margin = 0",
                  "Called without margin your function must behave as with margin=0.0 passed: {detail}.",
                  relation="defaults", compare=relation_compare("implicit", "explicit", "called without margin",
                                                                "with margin=0.0 passed")),
            Check("matches-reference", "the loss matches the reference on random batches",
                  "Your loss differs from the reference: expected {expected}, got {got}.", fields=("loss",)),
            *self.gradient_checks(),
        ]


SPEC = BradleyTerrySpec()
