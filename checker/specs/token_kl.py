"""Checker spec of the `token-kl` drill (PyTorch): token_kl(log_probs, ref_log_probs, response_mask,
estimator="k3") -> (kl, kl_mean), Schulman's k1 / k2 / k3 estimators of KL(pi || pi_ref) per token from
the log-probs of tokens sampled from pi, and their token-mean over the valid tokens of the batch.

log r = ref_log_probs - log_probs:  k1 = -log r,  k2 = (log r)^2 / 2,  k3 = (r - 1) - log r.
"""
from __future__ import annotations

import numpy as np
import torch

from checker.reference import kl_per_token
from checker.specs.base import (
    Check,
    Example,
    close,
    contract_check,
    first_where,
    relation_compare,
)
from checker.specs.losses import draw_array, grid
from checker.specs.token_base import (
    TokenSpec,
    draw_lengths,
    fill_padding,
    has_garbage,
    prefix_mask,
)

ESTIMATORS = ("k1", "k2", "k3")
VALID_KL = TokenSpec.on_valid("kl")
WORKED_LOGP = [[-1.0, -2.0, -0.5], [-0.2, -3.0, -1.0]]
WORKED_REF = [[-1.5, -1.0, -0.5], [-0.7, -9.0, -9.0]]
WORKED_MASK = [[True, True, True], [True, False, False]]


def _estimator(ex: Example) -> str:
    return ex.hyper.get("estimator", "k3")


def _mean_is_token_mean(ex: Example, got: dict) -> str | None:
    mask = ex.arrays["response_mask"]
    kl = got["kl"]
    want = float(kl[mask].sum() / mask.sum())
    if close(np.asarray(want), got["kl_mean"]).all():
        return None
    return (f"your kl_mean is {float(got['kl_mean']):.6g} but the mean of your own per-token kl over the "
            f"{int(mask.sum())} valid tokens is {want:.6g}")


def _nonnegative(ex: Example, got: dict) -> str | None:
    kl, mask = got["kl"], ex.arrays["response_mask"]
    bad = mask & ~(kl >= -1e-12)
    if bad.any():
        b, t = first_where(bad)
        return f"with estimator={_estimator(ex)!r} your kl at row {b}, t = {t} is {kl[b, t]:.6g}"
    return None


def _zero_where_equal(ex: Example, got: dict) -> str | None:
    lp, ref, mask = ex.arrays["log_probs"], ex.arrays["ref_log_probs"], ex.arrays["response_mask"]
    same = mask & (lp == ref)
    bad = same & ~(np.abs(got["kl"]) <= 1e-9)
    if bad.any():
        b, t = first_where(bad)
        return f"at row {b}, t = {t} log_probs equals ref_log_probs, yet your kl there is {got['kl'][b, t]:.6g}"
    return None


class TokenKlSpec(TokenSpec):
    drill_id = "token-kl"
    function = "token_kl"
    positional = ("log_probs", "ref_log_probs", "response_mask")
    roles = {
        "mask": ("response_mask",),
        "padded_outputs": True,
        "nonfinite_padding": "padded log-probs may hold NaN and inf",
    }
    hyper_defaults = {"estimator": "k3"}
    outputs = (("kl", "bt"), ("kl_mean", "scalar"))

    def axis_classes(self):
        return [(f" ({k})", lambda ex, k=k: _estimator(ex) == k) for k in ESTIMATORS]

    def strategy(self, framework: str):
        from hypothesis import strategies as st

        @st.composite
        def draw(draw):
            B, T = draw(st.integers(1, 4)), draw(st.integers(1, 8))
            ref = draw_array(draw, grid(-6.0, -0.25, 0.25), (B, T))
            log_ratio = draw_array(draw, grid(-2.0, 2.0, 0.125), (B, T))
            mask = prefix_mask(draw_lengths(draw, B, T), T)
            lp = ref + log_ratio
            garbage = draw(st.sampled_from(["none", "none", "none", "nan", "inf", "huge"]))
            if garbage != "none":
                lp = fill_padding(lp, mask, garbage)
                ref = fill_padding(ref, mask, draw(st.sampled_from(["zeros", "nan", "numbers"])))
            hyper = {}
            choice = draw(st.sampled_from(["k1", "k2", "k3", "k3", "default"]))
            if choice != "default":
                hyper["estimator"] = choice
            arrays = {"log_probs": lp, "ref_log_probs": ref, "response_mask": mask}
            if draw(st.integers(0, 3)) == 0:
                arrays = {k: (v.astype(np.float32) if v.dtype.kind == "f" else v) for k, v in arrays.items()}
            return Example(arrays, hyper)
        return draw()

    def edge_cases(self, framework: str) -> list[Example]:
        f = lambda x: np.asarray(x, dtype=np.float64)  # noqa: E731
        worked = {"log_probs": f(WORKED_LOGP), "ref_log_probs": f(WORKED_REF),
                  "response_mask": np.array(WORKED_MASK)}
        cases = [Example(dict(worked), {"estimator": k}, f"edge: worked example, {k}") for k in ESTIMATORS]
        cases.append(Example(dict(worked), {}, "edge: worked example, default estimator"))
        rng = np.random.default_rng(5)
        T = 16
        ref = np.round(rng.uniform(-5, -0.1, (2, T)), 2)
        lp = np.round(ref + rng.uniform(-1.5, 1.5, (2, T)), 2)
        lengths = prefix_mask([T, 1], T)
        for k in ESTIMATORS:
            cases.append(Example({"log_probs": lp, "ref_log_probs": ref, "response_mask": lengths},
                                 {"estimator": k}, f"edge: rows of 16 and 1 valid tokens, {k}"))
        same = lp.copy()
        same[0, ::2] = ref[0, ::2]
        cases.append(Example({"log_probs": same, "ref_log_probs": ref, "response_mask": prefix_mask([12, 5], T)},
                             {"estimator": "k3"}, "edge: some tokens where the policies agree"))
        cases.append(Example({"log_probs": f([[-0.3]]), "ref_log_probs": f([[-1.3]]),
                              "response_mask": np.array([[True]])}, {"estimator": "k3"}, "edge: a single token"))
        mask = prefix_mask([3, 1], 4)
        base = {"log_probs": f([[-1.0, -0.5, -2.0, -1.0], [-0.4, -1.0, -1.0, -1.0]]),
                "ref_log_probs": f([[-0.5, -1.5, -2.5, -1.0], [-1.4, -1.0, -1.0, -1.0]])}
        for kind in ("nan", "inf"):
            for k in ESTIMATORS:
                arrays = {"log_probs": fill_padding(base["log_probs"], mask, kind),
                          "ref_log_probs": fill_padding(base["ref_log_probs"], mask, "-inf" if kind == "inf" else kind),
                          "response_mask": mask}
                cases.append(Example(arrays, {"estimator": k}, f"edge: {k} with {kind} padding"))
        clean = {**base, "response_mask": mask}
        cases += self.padding_pair(clean, {"estimator": "k3"}, "rows of 3 and 1 valid tokens", {
            "nan": {"log_probs": "nan", "ref_log_probs": "nan"},
            "inf": {"log_probs": "inf", "ref_log_probs": "-inf"},
            "huge": {"log_probs": "huge"}})
        cases += self.defaults_pair(dict(worked), "worked example")
        cases.append(Example({k: (v.astype(np.float32) if v.dtype.kind == "f" else v) for k, v in worked.items()},
                             {"estimator": "k3"}, "edge: float32 log-probs"))
        cases.append(Example(dict(worked), {"estimator": "k4"}, "contract: an unknown estimator",
                             invalid="an unknown estimator ('k4')"))
        return cases

    def reference_outputs(self, ex: Example) -> dict:
        mask = torch.from_numpy(ex.arrays["response_mask"].copy())
        # KL(pi || pi_ref) with samples from pi: kl_per_token's `logp` is the sampler's log-probs.
        kl = kl_per_token(ex.arrays["log_probs"], ex.arrays["ref_log_probs"], _estimator(ex))
        kl = torch.where(mask, kl, torch.zeros((), dtype=torch.float64))
        return {"kl": kl.numpy(), "kl_mean": (kl.sum() / mask.sum()).numpy()}

    def checks(self) -> list[Check]:
        def on(k):
            return lambda ex: ex.invalid is None and ex.hyper.get("estimator") == k and not has_garbage(ex)

        return [
            contract_check("an unknown estimator raises ValueError"),
            Check("worked-example", "reproduces the prompt's worked example",
                  "On the prompt's {label}, your {field} is {got}{at}; it must be {expected}.",
                  applies=lambda ex: ex.label.startswith("edge: worked example"), fields=("kl", "kl_mean")),
            Check("k1", "k1 = log_probs - ref_log_probs per valid token",
                  "With estimator='k1' each valid token's kl must be log_probs - ref_log_probs (the log-ratio "
                  "pi / pi_ref of a token sampled from pi); yours differs{at}: expected {expected}, got {got}.",
                  applies=on("k1"), fields=(VALID_KL,)),
            Check("k2", "k2 = (log_probs - ref_log_probs)^2 / 2 per valid token",
                  "With estimator='k2' each valid token's kl must be 0.5 * (log_probs - ref_log_probs)^2; yours "
                  "differs{at}: expected {expected}, got {got}.", applies=on("k2"), fields=(VALID_KL,)),
            Check("k3", "k3 = exp(ref - logp) - 1 - (ref - logp) per valid token",
                  "With estimator='k3' each valid token's kl must be r - 1 - log r with r = pi_ref / pi = "
                  "exp(ref_log_probs - log_probs); yours differs{at}: expected {expected}, got {got}.",
                  applies=on("k3"), fields=(VALID_KL,)),
            Check("nonnegative", "k2 and k3 are never negative",
                  "k2 and k3 are >= 0 on every token (x - 1 >= log x): {detail}.",
                  applies=lambda ex: ex.invalid is None and ex.hyper.get("estimator") in ("k2", "k3"),
                  custom=_nonnegative),
            Check("zero-where-equal", "kl is 0 on tokens where the two log-probs agree",
                  "Every estimator is 0 where pi and pi_ref give the token the same log-prob: {detail}.",
                  custom=_zero_where_equal),
            Check("mean-is-token-mean", "kl_mean is the mean of kl over the valid tokens of the batch",
                  "kl_mean must be the token-mean of the per-token kl over every valid token of the batch "
                  "(sum over valid tokens / their number): {detail}.", custom=_mean_is_token_mean),
            Check("kl-mean", "kl_mean matches the reference",
                  "Your kl_mean differs from the reference: expected {expected}, got {got}.",
                  applies=lambda ex: ex.invalid is None and not has_garbage(ex), fields=("kl_mean",)),
            self.padding_check(("kl",)),
            self.padding_relation_check((VALID_KL, "kl_mean"), "kl on valid tokens and kl_mean"),
            Check("defaults", "the default estimator is k3",
                  "Called without estimator your function must behave as with estimator='k3' passed: {detail}.",
                  relation="defaults", compare=relation_compare("implicit", "explicit", "called without estimator",
                                                                "with estimator='k3' passed")),
            Check("matches-reference", "kl and kl_mean match the reference on random batches",
                  "Your {field} differs from the reference{at}: expected {expected}, got {got}.",
                  fields=("kl", "kl_mean")),
        ]


SPEC = TokenKlSpec()
