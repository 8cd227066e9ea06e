"""Checker spec of the `kl-reward` drill (PyTorch): kl_shaped_rewards(log_probs, ref_log_probs, scores,
response_mask, kl_coef=0.1) -> rewards [B, T], the per-token RLHF reward -kl_coef * (log_probs -
ref_log_probs) on every valid token with each row's sequence score added on its last valid token
(right padding), 0 on padding.
"""
from __future__ import annotations

import numpy as np
import torch

from checker.reference import kl_shaped_rewards
from checker.specs.base import Check, Example, close, first_where, relation_compare
from checker.specs.losses import draw_array, grid
from checker.specs.token_base import TokenSpec, draw_lengths, fill_padding, prefix_mask

WORKED_LOGP = [[-1.0, -0.5, -2.0, -0.1], [-0.3, -1.2, 0.0, 0.0], [-2.0, -9.0, -9.0, -9.0]]
WORKED_REF = [[-1.5, -0.5, -1.0, -0.1], [-0.8, -1.0, 0.0, 0.0], [-1.0, 0.0, 0.0, 0.0]]
WORKED_SCORES = [1.0, -0.5, 2.0]
WORKED_LENGTHS = [4, 2, 1]
VALID_R = TokenSpec.on_valid("rewards")


def _beta(ex: Example) -> float:
    return ex.hyper.get("kl_coef", 0.1)


def _parts(ex: Example):
    f = lambda k: ex.arrays[k].astype(np.float64)  # noqa: E731
    mask = ex.arrays["response_mask"]
    last = mask.sum(-1) - 1
    with np.errstate(invalid="ignore", over="ignore"):
        kl_term = -_beta(ex) * (f("log_probs") - f("ref_log_probs"))
    return mask, last, kl_term, f("scores")


def _first_bad(bad: np.ndarray):
    return first_where(bad)


def _kl_on_valid_tokens(ex: Example, got: dict) -> str | None:
    mask, last, kl_term, _ = _parts(ex)
    inner = mask.copy()
    inner[np.arange(mask.shape[0]), last] = False
    bad = inner & ~close(got["rewards"], kl_term)
    if bad.any():
        b, t = _first_bad(bad)
        return (f"at row {b}, t = {t} (a valid token before the last) your reward is {got['rewards'][b, t]:.6g}; "
                f"-kl_coef * (log_probs - ref_log_probs) is {kl_term[b, t]:.6g}")
    return None


def _kl_on_last_token(ex: Example, got: dict) -> str | None:
    mask, last, kl_term, _ = _parts(ex)
    rows = np.arange(mask.shape[0])
    want, have = kl_term[rows, last], got["rewards"][rows, last]
    bad = ~close(have, want)
    if bad.any():
        b = first_where(bad)[0]
        return (f"row {b} has score 0, so its last valid token (t = {int(last[b])}) must get just the KL term "
                f"{want[b]:.6g}; yours is {have[b]:.6g}")
    return None


def _score_placement(ex: Example, got: dict) -> str | None:
    mask, last, _, scores = _parts(ex)
    want = np.zeros(mask.shape)
    want[np.arange(mask.shape[0]), last] = scores
    have = np.where(mask, got["rewards"], 0.0)
    bad = ~close(have, want)
    if bad.any():
        b, t = _first_bad(bad)
        return (f"with no KL on row {b} (the two log-probs agree), its rewards must be 0 except the score "
                f"{scores[b]:.6g} on its last valid token t = {int(last[b])}; yours is {have[b, t]:.6g} at t = {t}")
    return None


def _no_kl(ex: Example) -> bool:
    if ex.invalid is not None:
        return False
    mask = ex.arrays["response_mask"]
    same = (ex.arrays["log_probs"] == ex.arrays["ref_log_probs"]) | ~mask
    return bool(same.all() or _beta(ex) == 0.0)


def _no_scores(ex: Example) -> bool:
    return ex.invalid is None and not ex.arrays["scores"].any() and _beta(ex) != 0.0


class KlRewardSpec(TokenSpec):
    drill_id = "kl-reward"
    function = "kl_shaped_rewards"
    positional = ("log_probs", "ref_log_probs", "scores", "response_mask")
    roles = {
        "mask": ("response_mask",),
        "padded_outputs": True,
        "nonfinite_padding": "padded log-probs may hold NaN and inf",
    }
    hyper_defaults = {"kl_coef": 0.1}
    outputs = (("rewards", "bt"),)

    def strategy(self, framework: str):
        from hypothesis import strategies as st

        @st.composite
        def draw(draw):
            B, T = draw(st.integers(1, 4)), draw(st.integers(1, 8))
            ref = draw_array(draw, grid(-6.0, -0.25, 0.25), (B, T))
            shape = draw(st.sampled_from(["kl", "kl", "no-kl"]))
            log_ratio = draw_array(draw, grid(-2.0, 2.0, 0.125), (B, T)) if shape == "kl" else np.zeros((B, T))
            scores = draw_array(draw, grid(-2.0, 2.0, 0.25), (B,)) if draw(st.integers(0, 3)) else np.zeros(B)
            mask = prefix_mask(draw_lengths(draw, B, T), T)
            lp = ref + log_ratio
            garbage = draw(st.sampled_from(["none", "none", "none", "nan", "inf", "huge"]))
            if garbage != "none":
                lp = fill_padding(lp, mask, garbage)
                ref = fill_padding(ref, mask, draw(st.sampled_from(["zeros", "nan", "numbers"])))
            hyper = {}
            beta = draw(st.sampled_from(["default", 0.05, 0.2, 1.0, 0.0]))
            if beta != "default":
                hyper["kl_coef"] = beta
            arrays = {"log_probs": lp, "ref_log_probs": ref, "scores": scores, "response_mask": mask}
            if draw(st.integers(0, 3)) == 0:
                arrays = {k: (v.astype(np.float32) if v.dtype.kind == "f" else v) for k, v in arrays.items()}
            return Example(arrays, hyper)
        return draw()

    def edge_cases(self, framework: str) -> list[Example]:
        f = lambda x: np.asarray(x, dtype=np.float64)  # noqa: E731

        def ex(lp, ref, scores, lengths, label, **hyper):
            T = np.asarray(lp).shape[-1]
            return Example({"log_probs": f(lp), "ref_log_probs": f(ref), "scores": f(scores),
                            "response_mask": prefix_mask(lengths, T)}, hyper, f"edge: {label}")

        cases = [ex(WORKED_LOGP, WORKED_REF, WORKED_SCORES, WORKED_LENGTHS, "worked example", kl_coef=0.1),
                 ex(WORKED_LOGP, WORKED_REF, WORKED_SCORES, WORKED_LENGTHS, "worked example, default kl_coef")]
        rng = np.random.default_rng(9)
        T = 16
        ref = np.round(rng.uniform(-4, -0.1, (3, T)), 2)
        lp = np.round(ref + rng.uniform(-1, 1, (3, T)), 2)
        cases.append(ex(lp, ref, [1.5, -1.0, 0.5], [T, 1, 7], "rows of 16, 1 and 7 valid tokens", kl_coef=0.2))
        cases.append(ex(ref, ref, [1.5, -1.0, 0.5], [T, 1, 7], "equal log-probs: the scores alone", kl_coef=0.2))
        cases.append(ex(lp, ref, [0.0, 0.0, 0.0], [T, 1, 7], "zero scores: the KL term alone", kl_coef=0.2))
        cases.append(ex(lp, ref, [1.5, -1.0, 0.5], [T, 1, 7], "kl_coef = 0", kl_coef=0.0))
        cases.append(ex([[-0.7]], [[-0.2]], [3.0], [1], "a single token", kl_coef=0.5))
        mask = prefix_mask([3, 1], 4)
        base_lp, base_ref = f([[-1.0, -0.5, -2.0, -1.0], [-0.4, -1.0, -1.0, -1.0]]), f([[-0.5, -1.5, -2.5, -1.0],
                                                                                        [-1.4, -1.0, -1.0, -1.0]])
        for kind in ("nan", "inf"):
            cases.append(Example({"log_probs": fill_padding(base_lp, mask, kind),
                                  "ref_log_probs": fill_padding(base_ref, mask, "-inf" if kind == "inf" else kind),
                                  "scores": f([1.0, 2.0]), "response_mask": mask}, {"kl_coef": 0.1},
                                 f"edge: {kind} padding"))
        cases += self.padding_pair({"log_probs": base_lp, "ref_log_probs": base_ref, "scores": f([1.0, 2.0]),
                                    "response_mask": mask}, {"kl_coef": 0.1}, "rows of 3 and 1 valid tokens", {
            "nan": {"log_probs": "nan", "ref_log_probs": "nan"},
            "inf": {"log_probs": "inf", "ref_log_probs": "-inf"},
            "huge": {"log_probs": "huge"}})
        cases += self.defaults_pair(cases[0].arrays, "worked example")
        worked32 = ex(WORKED_LOGP, WORKED_REF, WORKED_SCORES, WORKED_LENGTHS, "float32 inputs", kl_coef=0.1)
        cases.append(Example({k: (v.astype(np.float32) if v.dtype.kind == "f" else v)
                              for k, v in worked32.arrays.items()}, worked32.hyper, worked32.label))
        return cases

    def reference_outputs(self, ex: Example) -> dict:
        mask = torch.from_numpy(ex.arrays["response_mask"].copy())
        rewards = kl_shaped_rewards(ex.arrays["log_probs"], ex.arrays["ref_log_probs"], ex.arrays["scores"], mask,
                                    beta=_beta(ex), estimator="k1")
        return {"rewards": rewards.numpy()}

    def checks(self) -> list[Check]:
        return [
            Check("worked-example", "reproduces the prompt's worked example",
                  "On the prompt's {label}, your rewards are {got}{at}; they must be {expected}.",
                  applies=lambda ex: ex.label.startswith("edge: worked example"), fields=("rewards",)),
            Check("kl-on-valid-tokens", "every valid token before the last gets -kl_coef * (log_probs - ref)",
                  "Each valid token's reward is the KL penalty -kl_coef * (log_probs - ref_log_probs) (k1, "
                  "negative where the policy is more likely than the reference): {detail}.",
                  applies=lambda ex: ex.invalid is None, custom=_kl_on_valid_tokens),
            Check("kl-on-last-token", "the last valid token keeps its KL term too",
                  "The score is added to the last valid token's KL penalty, not put in its place: {detail}.",
                  applies=_no_scores, custom=_kl_on_last_token),
            Check("score-on-last-valid-token", "each row's score goes on its last valid token only",
                  "Right padding: row b's last valid token is at mask.sum() - 1, and only it receives the "
                  "score: {detail}.", applies=_no_kl, custom=_score_placement),
            self.padding_check(),
            self.padding_relation_check((VALID_R,), "valid rewards"),
            Check("defaults", "the default kl_coef is 0.1",
                  "Called without kl_coef your function must behave as with kl_coef=0.1 passed: {detail}.",
                  relation="defaults", compare=relation_compare("implicit", "explicit", "called without kl_coef",
                                                                "with kl_coef=0.1 passed")),
            Check("matches-reference", "rewards match the reference on random batches",
                  "Your rewards differ from the reference{at}: expected {expected}, got {got}.",
                  fields=("rewards",)),
        ]


SPEC = KlRewardSpec()
