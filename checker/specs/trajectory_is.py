"""Checker spec of the `trajectory-is` drill: trajectory_is(logp, old_logp, mask, returns) ->
(log_w, ess, is_estimate, snis_estimate): per-trajectory log importance weights from masked per-token
log-ratios, the effective sample size (sum w)^2 / sum w^2 computed in log space, and the plain and
self-normalised importance-sampling estimates of the expected return (Kong 1992; Owen 2013,
Monte Carlo theory, methods and examples, ch. 9)."""
from __future__ import annotations

import numpy as np
import torch

from checker.reference import effective_sample_size, trajectory_log_weight
from checker.specs.base import (
    Check,
    Example,
    close,
    contract_check,
    relation_compare,
    relation_same_on,
)
from checker.specs.losses import draw_array, grid
from checker.specs.pref_base import NamedOutputsSpec

OUTPUTS = ("log_w", "ess", "is_estimate", "snis_estimate")
WORKED_LOGP = [[-1.0, -0.5, -2.0], [-0.2, -1.0, 0.0], [-1.5, -0.3, -0.7]]
WORKED_OLD = [[-1.2, -0.5, -1.5], [-0.4, -0.8, -3.0], [-1.0, -0.6, -0.7]]
WORKED_MASK = [[True, True, True], [True, True, False], [True, False, False]]
WORKED_RETURNS = [1.0, 0.0, 2.0]


def _extreme(ex: Example) -> bool:
    """Weights beyond exp's range: the extreme-weight edge cases and the log-shift relation's shifted ones."""
    return ex.label.startswith("edge: extreme weights") or ex.relation == ("log-shift", "up") or \
        ex.relation == ("log-shift", "down")


def _long(ex: Example) -> bool:
    return ex.label.startswith("edge: long trajectories")


def _padded(ex: Example) -> bool:
    return ex.invalid is None and not ex.arrays["mask"].all()


def _ess_range(ex: Example, got: dict) -> str | None:
    n = ex.arrays["returns"].shape[0]
    ess = float(got["ess"])
    if 1.0 - 1e-9 <= ess <= n * (1 + 1e-9):
        return None
    return f"with N = {n} trajectories the ESS must lie in [1, {n}]; yours is {ess:.6g}"


def _ess_equal_weights(ex: Example, got: dict) -> str | None:
    lw = got["log_w"]
    n = lw.shape[0]
    if not (np.isfinite(lw).all() and np.allclose(lw, lw[0], rtol=0, atol=1e-12)):
        return None
    if close(np.asarray(float(n)), got["ess"]).all():
        return None
    return f"your {n} log-weights are all equal ({float(lw[0]):.6g}), so the ESS must be {n}; yours is {float(got['ess']):.6g}"


def _snis_bounds(ex: Example, got: dict) -> str | None:
    g = ex.arrays["returns"]
    s = float(got["snis_estimate"])
    lo, hi = float(g.min()), float(g.max())
    if lo - 1e-9 * max(1, abs(lo)) <= s <= hi + 1e-9 * max(1, abs(hi)):
        return None
    return (f"the self-normalised estimate is a weighted average of the returns (weights w_n / sum w), so it "
            f"lies in [{lo:.6g}, {hi:.6g}]; yours is {s:.6g}")


class TrajectoryIsSpec(NamedOutputsSpec):
    drill_id = "trajectory-is"
    function = "trajectory_is"
    positional = ("logp", "old_logp", "mask", "returns")
    roles = {"new_logp": ("logp",), "old_logp": ("old_logp",)}
    hyper_defaults = {}
    trainable = ()
    constants = ()
    output_fields = OUTPUTS

    def strategy(self, framework: str):
        from hypothesis import strategies as st

        @st.composite
        def draw(draw):
            N, T = draw(st.integers(1, 5)), draw(st.integers(1, 8))
            old = draw_array(draw, grid(-3.0, -0.125, 0.125), (N, T))
            lr = draw_array(draw, grid(-0.75, 0.75, 0.125), (N, T))
            lengths = [draw(st.integers(0, T)) for _ in range(N)]
            mask = np.arange(T)[None, :] < np.array(lengths)[:, None]
            junk = draw(st.sampled_from([0.0, 0.0, 2.0, -7.0]))
            logp = np.where(mask, old + lr, junk)
            old = np.where(mask, old, -1.0)
            returns = draw_array(draw, grid(-2.0, 3.0, 0.25), (N,))
            return Example({"logp": logp, "old_logp": old, "mask": mask, "returns": returns})
        return draw()

    def edge_cases(self, framework: str) -> list[Example]:
        f = lambda x: np.asarray(x, dtype=np.float64)  # noqa: E731

        def ex(logp, old, mask, returns, label):
            return Example({"logp": f(logp), "old_logp": f(old), "mask": np.asarray(mask, dtype=bool),
                            "returns": f(returns)}, {}, f"edge: {label}")

        one = lambda lw: [[x, 0.0] for x in lw]  # noqa: E731 - log w as the first of two tokens
        m2 = [[True, False]]
        ok = [
            ex(WORKED_LOGP, WORKED_OLD, WORKED_MASK, WORKED_RETURNS, "worked example"),
            ex(one([700.0, -700.0, 0.0]), [[0.0, 5.0]] * 3, m2 * 3, [1.0, 2.0, 3.0],
               "extreme weights: log w = 700, -700 and 0"),
            ex(one([700.0, 699.0]), [[0.0, -3.0]] * 2, m2 * 2, [1.0, -1.0], "extreme weights: log w = 700 and 699"),
            ex(one([-700.0, -700.5, -701.0]), [[0.0, 0.0]] * 3, m2 * 3, [2.0, 0.5, 1.0],
               "extreme weights: every log w near -700"),
            ex(one([0.3, 0.3, 0.3, 0.3]), [[0.0, 0.0]] * 4, m2 * 4, [1.0, 2.0, 0.0, -1.0],
               "equal weights (ESS = N)"),
            ex([[-1.0, -1.0]], [[-1.5, -0.7]], [[True, True]], [2.0], "a single trajectory"),
            ex([[-0.5, 4.0, 4.0], [-1.0, -1.0, 9.0]], [[-1.0, -3.0, -3.0], [-0.5, -2.0, -8.0]],
               [[True, False, False], [True, True, False]], [1.0, 3.0], "padding far from the policy tokens"),
            ex([[0.0, 0.0], [-0.5, 0.0]], [[0.0, 0.0], [0.0, 0.0]], [[False, False], [True, False]], [1.0, 2.0],
               "a trajectory with no policy token (log w = 0)"),
            # "whatever finite value it holds": padding far outside any log-prob's range (a mask multiplied in
            # is right here, since every padded value is finite and so is its product with 0)
            ex([[-0.5, 1e30, -1e30], [-1.0, -1.0, 3e29]], [[-1.0, -3.0, 1e30], [-0.5, -2.0, -5e29]],
               [[True, False, False], [True, True, False]], [1.0, 3.0], "huge finite values in the padding"),
            ex([[-2.0, -0.5, -1e20, -1e20], [-0.2, 1e25, -7e24, 0.0], [-1.0, -1.0, -1.0, 4e30]],
               [[-1.5, -1.0, -2.0, 1e20], [-0.4, -1.0, 0.0, -2e30], [-1.2, -0.9, -1.1, -1.0]],
               [[True, True, False, False], [True, False, False, False], [True, True, True, False]],
               [2.0, -1.0, 0.5], "huge finite values in the padding of three rows"),
        ]
        # relations on the answer itself: what padding holds, and log-weights all shifted by one constant
        pad_lp, pad_old = [[-0.5, 4.0, 4.0], [-1.0, -1.0, 9.0]], [[-1.0, -3.0, -3.0], [-0.5, -2.0, -8.0]]
        pad_m = [[True, False, False], [True, True, False]]
        for role, lp, old_ in (("as-given", pad_lp, pad_old),
                               ("changed", [[-0.5, -900.0, 3.5], [-1.0, -1.0, -0.25]], [[-1.0, 6.0, 800.0],
                                                                                        [-0.5, -2.0, 0.0]])):
            e = ex(lp, old_, pad_m, [1.0, 3.0], "padding far from the policy tokens" if role == "as-given" else
                   "the same trajectories, other values in the padding")
            ok.append(Example(e.arrays, e.hyper, e.label, relation=("padding", role)))
        for role, shift in (("base", 0.0), ("up", 700.0), ("down", -700.0)):
            e = ex(one([0.5 + shift, -0.3 + shift, 1.0 + shift]), [[0.0, 0.0]] * 3, m2 * 3, [1.0, -2.0, 0.5],
                   f"log w = 0.5, -0.3, 1.0 shifted by {shift:g}")
            ok.append(Example(e.arrays, e.hyper, e.label, relation=("log-shift", role)))
        rng = np.random.default_rng(11)
        T = 400
        old = np.round(rng.uniform(-3.0, -1.5, (3, T)), 3)
        logp = np.round(old + rng.uniform(-0.01, 0.01, (3, T)), 3)
        mask = np.ones((3, T), dtype=bool)
        ok.append(Example({"logp": logp, "old_logp": old, "mask": mask, "returns": f([1.0, 0.0, 2.0])}, {},
                          "edge: long trajectories: 400 tokens of probability about e^-2 each"))
        rng2 = np.random.default_rng(12)
        old2 = np.round(rng2.uniform(-4.0, -2.0, (2, 300)), 3)
        logp2 = np.round(old2 + rng2.uniform(-0.02, 0.02, (2, 300)), 3)
        mask2 = np.ones((2, 300), dtype=bool)
        ok.append(Example({"logp": logp2, "old_logp": old2, "mask": mask2, "returns": f([0.5, -1.0])}, {},
                          "edge: long trajectories: 300 tokens of probability about e^-3 each"))
        z = lambda *shape: np.zeros(shape)  # noqa: E731
        bad = [("logp and old_logp of different shapes", z(2, 3), z(2, 2), np.ones((2, 3), bool), z(2)),
               ("returns of a different length than the batch", z(2, 3), z(2, 3), np.ones((2, 3), bool), z(3)),
               ("1-D log-probs", z(3), z(3), np.ones(3, bool), z(1)),
               ("an empty batch", z(0, 3), z(0, 3), np.ones((0, 3), bool), z(0))]
        return ok + [Example({"logp": a, "old_logp": b, "mask": m, "returns": g}, {}, f"contract: {what}",
                             invalid=what) for what, a, b, m, g in bad]

    def reference_outputs(self, t: dict, hyper: dict) -> dict:
        logp, old, mask, g = t["logp"], t["old_logp"], t["mask"], t["returns"]
        if logp.dim() != 2 or logp.shape != old.shape or logp.shape != mask.shape or logp.shape[0] == 0:
            raise ValueError("logp, old_logp and mask must be [N, T] of one shape with N >= 1")
        if g.shape != (logp.shape[0],):
            raise ValueError("returns must be [N]")
        lw = trajectory_log_weight(logp, old, mask)
        ess = effective_sample_size(lw)
        is_est = (torch.exp(lw) * g).mean()
        snis = (torch.softmax(lw, dim=0) * g).sum()
        return {"log_w": lw, "ess": ess, "is_estimate": is_est, "snis_estimate": snis}

    def extract(self, value, ex: Example, framework: str) -> dict:
        log_w, ess, is_est, snis = self.tuple_of(value, 4, "trajectory_is must return (log_w, ess, is_estimate, "
                                                           "snis_estimate)")
        n = ex.arrays["returns"].shape[0]
        return {"log_w": self.array(log_w, framework, (n,), "log_w", "one log-weight per trajectory"),
                "ess": self.number(ess, "ess"), "is_estimate": self.number(is_est, "is_estimate"),
                "snis_estimate": self.number(snis, "snis_estimate")}

    def checks(self) -> list[Check]:
        valid = lambda ex: ex.invalid is None  # noqa: E731
        ordinary = lambda ex: valid(ex) and not _extreme(ex) and not _long(ex)  # noqa: E731
        return [
            contract_check("invalid inputs raise ValueError"),
            Check("worked-example", "reproduces the prompt's worked example",
                  "On the prompt's worked example your {field} is {got}{at}; it must be {expected}.",
                  applies=lambda ex: ex.label == "edge: worked example", fields=OUTPUTS),
            Check("log-weights", "log w is the sum of the masked per-token log-ratios",
                  "log w_n = sum_t mask * (logp - old_logp); your log_w differs{at}: expected {expected}, got {got}.",
                  applies=lambda ex: ordinary(ex) and not _padded(ex), fields=("log_w",)),
            Check("padding-ignored", "padded tokens add nothing to log w",
                  "Tokens where the mask is False are not the policy's, whatever they hold: {detail}.",
                  relation="padding", compare=relation_compare("changed", "as-given", "with other values in the padding",
                                                               "with the padding as given")),
            Check("long-trajectories", "log w stays exact on long trajectories",
                  "On {label}, where a trajectory's probability is about e^-800 (0 in float64), your log_w{at} is "
                  "{got}; it must be {expected}.",
                  applies=_long, fields=("log_w",)),
            Check("ess-range", "the ESS lies between 1 and N",
                  "(sum w)^2 / sum w^2 is at least 1 and at most N: {detail}.",
                  applies=ordinary, custom=_ess_range),
            Check("ess-equal-weights", "equal weights give ESS = N",
                  "The ESS counts how many equally weighted samples the weights are worth: {detail}.",
                  applies=ordinary, custom=_ess_equal_weights),
            Check("ess-log-space", "the ESS is computed in log space",
                  "Shifting every log w by one constant multiplies every weight by the same factor, which does not "
                  "change the ESS, yet {detail}: exp(log w) or its square "
                  "overflows or underflows there, ESS = exp(2 logsumexp(log w) - logsumexp(2 log w)) does not.",
                  relation="log-shift", compare=relation_same_on(
                      "base", ("ess",), "with log w = 0.5, -0.3, 1.0",
                      lambda role: f"with every log w shifted by {'+' if role == 'up' else '-'}700")),
            Check("ess", "the ESS is (sum w)^2 / sum w^2",
                  "The effective sample size is (sum w)^2 / sum w^2 (Kish's ESS), a count between 1 and N; "
                  "expected {expected}, got {got}.",
                  applies=ordinary, fields=("ess",)),
            Check("is-estimate", "the plain IS estimate is mean(w * G)",
                  "The ordinary importance-sampling estimate of the return is (1 / N) sum w_n G_n; expected "
                  "{expected}, got {got}.",
                  applies=ordinary, fields=("is_estimate",)),
            Check("snis-bounds", "the self-normalised estimate lies within the returns",
                  "{detail}.", applies=lambda ex: valid(ex) and not _long(ex), custom=_snis_bounds),
            Check("snis", "the self-normalised estimate is sum(w G) / sum(w)",
                  "The self-normalised estimate divides by the sum of the weights: sum w_n G_n / sum w_n; "
                  "expected {expected}, got {got}.",
                  applies=lambda ex: valid(ex) and not _long(ex), fields=("snis_estimate",)),
            Check("matches-reference", "all four outputs match the reference on random batches",
                  "Your {field} differs from the reference{at}: expected {expected}, got {got}.", fields=OUTPUTS),
        ]


SPEC = TrajectoryIsSpec()
