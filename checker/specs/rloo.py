"""Checker spec of the `rloo` drill: rloo_advantages(rewards) -> advantages, REINFORCE leave-one-out
advantages over K samples per prompt (Ahmadian et al. 2024, after Kool et al. 2019):
A_i = r_i - (sum_j r_j - r_i) / (K - 1), per prompt (row) of rewards [P, K]."""
from __future__ import annotations

import numpy as np

from checker.specs.base import Check, Example, close, contract_check, first_where
from checker.specs.losses import draw_array, grid
from checker.specs.pref_base import NamedOutputsSpec

WORKED = [[1.0, 0.0, 0.0, 1.0], [0.5, 2.0, 1.0, 0.5]]


def _row_sums_zero(ex: Example, got: dict) -> str | None:
    sums = got["advantages"].sum(-1)
    bad = ~close(sums, np.zeros_like(sums))
    if bad.any():
        p = first_where(bad)[0]
        return f"the advantages of prompt {p} sum to {float(sums[p]):.6g}"
    return None


def _pairwise_scale(ex: Example, got: dict) -> str | None:
    r, a = ex.arrays["rewards"], got["advantages"]
    K = r.shape[-1]
    want = (r[:, :, None] - r[:, None, :]) * K / (K - 1)
    have = a[:, :, None] - a[:, None, :]
    bad = ~close(have, want)
    if bad.any():
        p, i, j = first_where(bad)
        return (f"for prompt {p}, samples {i} and {j}: r_i - r_j = {float(r[p, i] - r[p, j]):.6g}, so A_i - A_j "
                f"must be K / (K - 1) times that = {float(want[p, i, j]):.6g}; yours is {float(have[p, i, j]):.6g}")
    return None


class RlooSpec(NamedOutputsSpec):
    drill_id = "rloo"
    function = "rloo_advantages"
    positional = ("rewards",)
    hyper_defaults = {}
    trainable = ()
    constants = ()
    output_fields = ("advantages",)

    def strategy(self, framework: str):
        from hypothesis import strategies as st

        @st.composite
        def draw(draw):
            P, K = draw(st.integers(1, 5)), draw(st.integers(2, 8))
            kind = draw(st.sampled_from(["binary", "graded", "graded"]))
            if kind == "binary":
                r = draw_array(draw, st.sampled_from([0.0, 1.0]), (P, K))
            else:
                r = draw_array(draw, grid(-3.0, 3.0, 0.25), (P, K))
            r = r + draw_array(draw, grid(-4.0, 4.0, 1.0), (P, 1))  # prompts of different difficulty
            return Example({"rewards": r})
        return draw()

    def edge_cases(self, framework: str) -> list[Example]:
        f = lambda x: np.asarray(x, dtype=np.float64)  # noqa: E731
        ok = [
            Example({"rewards": f(WORKED)}, {}, "edge: worked example"),
            Example({"rewards": f([[1.0, 3.0], [0.0, 0.0], [-2.0, 5.0]])}, {}, "edge: K = 2 samples per prompt"),
            Example({"rewards": f([[2.0, 2.0, 2.0]])}, {}, "edge: equal rewards (advantages 0)"),
            Example({"rewards": f([[0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0]])}, {}, "edge: one success in 8"),
            Example({"rewards": f([[10.0, 11.0, 12.0], [-10.0, -11.0, -12.0]])}, {},
                    "edge: prompts with very different reward levels"),
            Example({"rewards": f([[0.5, 1.5, 1.0, 3.0]])}, {}, "edge: a single prompt"),
            Example({"rewards": np.arange(16.0).reshape(1, 16) / 4}, {}, "edge: K = 16"),
        ]
        bad = [("1-D rewards", np.zeros(4)), ("K = 1 sample per prompt", np.zeros((3, 1))),
               ("no prompts", np.zeros((0, 4)))]
        return ok + [Example({"rewards": r}, {}, f"contract: {what}", invalid=what) for what, r in bad]

    def reference_outputs(self, t: dict, hyper: dict) -> dict:
        r = t["rewards"]
        if r.dim() != 2 or r.shape[0] == 0 or r.shape[1] < 2:
            raise ValueError("rewards must be [P, K] with P >= 1 and K >= 2")
        K = r.shape[1]
        baseline = (r.sum(-1, keepdim=True) - r) / (K - 1)
        return {"advantages": r - baseline}

    def extract(self, value, ex: Example, framework: str) -> dict:
        shape = ex.arrays["rewards"].shape
        return {"advantages": self.array(value, framework, shape, "the advantages", "like the rewards")}

    def checks(self) -> list[Check]:
        valid = lambda ex: ex.invalid is None  # noqa: E731
        return [
            contract_check("invalid inputs raise ValueError"),
            Check("worked-example", "reproduces the prompt's worked example",
                  "On the prompt's worked example your advantages are {got}{at}; they must be {expected}.",
                  applies=lambda ex: ex.label == "edge: worked example", fields=("advantages",)),
            Check("pairwise-scale", "within a prompt, A_i - A_j = K / (K - 1) (r_i - r_j)",
                  "The leave-one-out baseline of sample i excludes r_i, which makes A_i = K / (K - 1) (r_i - "
                  "mean): {detail}.", applies=valid, custom=_pairwise_scale),
            Check("zero-sum-per-prompt", "each prompt's advantages sum to zero",
                  "sum_i (r_i - mean of the others) is 0 for every prompt, but {detail}.",
                  applies=valid, custom=_row_sums_zero),
            Check("per-prompt-baseline", "the baseline uses only the prompt's own samples",
                  "Each sample's baseline is the mean of the other K - 1 samples of the SAME prompt; on "
                  "{label} your advantage{at} is {got}, expected {expected}.",
                  applies=lambda ex: valid(ex) and ex.arrays["rewards"].shape[0] > 1
                  and len({float(m) for m in ex.arrays["rewards"].mean(-1)}) > 1, fields=("advantages",)),
            Check("k-two", "with K = 2 each advantage is the difference of the pair",
                  "With K = 2 the other sample is the whole baseline: A = [r_0 - r_1, r_1 - r_0]; your advantage"
                  "{at} is {got}, expected {expected}.",
                  applies=lambda ex: valid(ex) and ex.arrays["rewards"].shape[-1] == 2, fields=("advantages",)),
            Check("matches-reference", "the advantages match the reference on random batches",
                  "Your advantages differ from the reference{at}: expected {expected}, got {got}.",
                  fields=("advantages",)),
        ]

    def where(self, mismatch) -> str:
        if len(mismatch.index) == 2:
            return f"prompt {mismatch.index[0]}, sample {mismatch.index[1]}"
        return super().where(mismatch)


SPEC = RlooSpec()
