"""Checker spec of the `critic-free-advantages` drill: critic_free_advantages(scores, old_log_prob,
ref_log_prob, response_mask, group_size=1, estimator="reinforce_pp", kl_coef=0.01) -> advantages [B, T].
Dr. GRPO (score minus the group mean, no std), REINFORCE++ (the k1 KL penalty in the token reward, the
score on the last valid token, the return to the end of the response, whitened over every valid token of
the global batch with the unbiased variance) and REINFORCE++-baseline (the group-centred score, whitened
the same way). Each estimator is its own class of examples; for the whitened ones the advantages up to
their own scale are a separate axis, so a slip in the whitening does not hide a slip in the return."""
from __future__ import annotations

import numpy as np

from checker.reference.critic_free import critic_free_advantages
from checker.specs.base import Axis, Check, Example, contract_check, first_where
from checker.specs.llm_outputs import LlmOutputsSpec, finite_padding, right_padded
from checker.specs.losses import draw_array, grid
from checker.specs.token_batches import draw_lengths, maybe_fill_padding

ESTIMATORS = ("reinforce_pp", "reinforce_pp_baseline", "dr_grpo")
FLOATS = ("old_log_prob", "ref_log_prob")
WORKED = "edge: worked example"
WORKED_SCORES = [1.0, 0.0, 0.0, 1.0]
WORKED_LENGTHS = [3, 1, 2, 3]
WORKED_OLD = [[-1.0, -0.5, -2.0], [-0.3, 0.0, 0.0], [-1.2, -0.8, 0.0], [-0.6, -1.5, -0.2]]
WORKED_REF = [[-1.5, -0.5, -1.0], [-0.8, 0.0, 0.0], [-1.2, -1.8, 0.0], [-0.6, -0.5, -0.7]]
SCALED = "advantages up to scale"


def _est(ex: Example) -> str:
    return ex.hyper.get("estimator", "reinforce_pp")


def _tame(ex: Example) -> bool:
    return ex.invalid is None and finite_padding(ex, FLOATS)


def _unit_scale(x: np.ndarray, mask: np.ndarray) -> np.ndarray:
    v = x[mask]
    if v.size < 2 or not np.isfinite(v).all():
        return np.where(mask, x, 0.0)
    s = v.std(ddof=1)
    return np.where(mask, x / s, 0.0) if s > 1e-9 else np.where(mask, x, 0.0)


def _whitened_stats(ex: Example, got: dict) -> str | None:
    """The whitened estimators' own output has mean 0 over the valid tokens (a property of any whitening)."""
    m = ex.arrays["response_mask"]
    a = np.asarray(got["advantages"], dtype=np.float64)[m]
    if not np.isfinite(a).all():
        return None
    mean = float(a.mean())
    if abs(mean) <= 1e-6 * max(1.0, float(np.abs(a).max())):
        return None
    return f"the mean of your advantages over the valid tokens of the batch is {mean:.6g}, not 0"


def _finite_advantages(ex: Example, got: dict) -> str | None:
    a = np.asarray(got["advantages"], dtype=np.float64)
    bad = ex.arrays["response_mask"] & ~np.isfinite(a)
    if not bad.any():
        return None
    b, t = first_where(bad)
    return f"on {ex.label} your advantage at row {b}, t = {t} is {a[b, t]}"


class CriticFreeSpec(LlmOutputsSpec):
    drill_id = "critic-free-advantages"
    function = "critic_free_advantages"
    positional = ("scores", "old_log_prob", "ref_log_prob", "response_mask")
    hyper_defaults = {"group_size": 1, "estimator": "reinforce_pp", "kl_coef": 0.01}
    roles = {"mask": ("response_mask",), "nonfinite_padding": "padded log-probs may hold NaN and inf"}
    trainable = ()
    constants = ()
    outputs = (("advantages", "bt"),)

    def strategy(self, framework: str):
        from hypothesis import strategies as st

        @st.composite
        def draw(draw):
            G = draw(st.sampled_from([1, 2, 3, 4]))
            P = draw(st.integers(1, 3))
            B, T = P * G, draw(st.integers(1, 5))
            lengths = draw_lengths(draw, B, T)
            if sum(lengths) < 2:
                lengths[0] = 2 if T >= 2 else 1
                if sum(lengths) < 2:
                    B, G, P = 2, 2, 1
                    lengths = [1, 1]
            mask = right_padded(lengths, T)
            scores = draw_array(draw, grid(-1.0, 2.0, 0.5), (B,))
            ref = draw_array(draw, grid(-3.0, -0.25, 0.25), (B, T))
            old = ref + draw_array(draw, grid(-1.0, 1.0, 0.25), (B, T))
            arrays = {"scores": scores, "old_log_prob": old, "ref_log_prob": ref, "response_mask": mask}
            arrays = maybe_fill_padding(draw, arrays, mask, FLOATS)
            if draw(st.integers(0, 4)) == 0:
                arrays = {k: (v.astype(np.float32) if v.dtype.kind == "f" else v) for k, v in arrays.items()}
            hyper = {"group_size": G} if G > 1 or draw(st.booleans()) else {}
            est = draw(st.sampled_from([None, *ESTIMATORS, "dr_grpo", "reinforce_pp_baseline"]))
            if est is not None:
                hyper["estimator"] = est
            coef = draw(st.sampled_from([None, 0.1, 0.5]))
            if coef is not None:
                hyper["kl_coef"] = coef
            return Example(arrays, hyper)
        return draw()

    def edge_cases(self, framework: str) -> list[Example]:
        f = lambda rows, dtype=np.float64: np.asarray(rows, dtype=dtype)  # noqa: E731
        nan, inf = np.nan, np.inf
        mask = right_padded(WORKED_LENGTHS, 3)
        worked = {"scores": f(WORKED_SCORES), "old_log_prob": f(WORKED_OLD), "ref_log_prob": f(WORKED_REF),
                  "response_mask": mask}
        poisoned = dict(worked, old_log_prob=np.where(mask, worked["old_log_prob"], nan),
                        ref_log_prob=np.where(mask, worked["ref_log_prob"], -inf))
        rng = np.random.default_rng(17)
        lmask = right_padded([40, 1, 23, 2, 40, 7], 40)
        lref = np.round(rng.uniform(-3, -0.5, (6, 40)) * 4) / 4
        long = {"scores": f([1.0, 0.0, 1.0, 1.0, 0.0, 0.5]), "ref_log_prob": np.where(lmask, lref, -inf),
                "old_log_prob": np.where(lmask, lref + np.round(rng.normal(size=(6, 40)) * 4) / 8, nan),
                "response_mask": lmask}
        ok = []
        for est in ESTIMATORS:
            ok += [Example(worked, {"group_size": 2, "estimator": est, "kl_coef": 0.1}, f"{WORKED} ({est})"),
                   Example(poisoned, {"group_size": 2, "estimator": est, "kl_coef": 0.1},
                           f"edge: NaN and -inf in the padding ({est})"),
                   Example(long, {"group_size": 3, "estimator": est, "kl_coef": 0.5},
                           f"edge: responses of 40, 1, 23, 2, 40 and 7 tokens ({est})")]
        pairs = {"scores": f([1.0, 0.0, 0.5, 0.5]), "response_mask": right_padded([2, 3, 4, 2], 4),
                 "old_log_prob": f([[-1.0, -0.5, nan, nan], [-0.3, -1.0, -2.0, inf], [-1.2, -0.8, -0.1, -0.5],
                                    [-0.6, -1.5, -inf, nan]]),
                 "ref_log_prob": f([[-1.5, -0.5, -inf, 0.0], [-0.8, -0.2, -1.0, nan], [-1.0, -1.8, -0.6, -0.5],
                                    [-0.6, -0.5, nan, -inf]])}
        ok += [Example(pairs, {"group_size": 2, "estimator": est, "kl_coef": 0.1},
                       f"edge: responses of 2 to 4 tokens, NaN and inf in the padding ({est})") for est in ESTIMATORS]
        ok += [
            Example(worked, {"group_size": 4, "estimator": "dr_grpo"}, "edge: one group of four (dr_grpo)"),
            Example(worked, {"group_size": 1, "estimator": "dr_grpo"}, "edge: groups of one (dr_grpo)"),
            Example({"scores": f([2.0, 2.0]), "old_log_prob": f([[-1.0, -2.0], [-0.5, 0.0]]),
                     "ref_log_prob": f([[-1.0, -2.0], [-0.5, 0.0]]), "response_mask": right_padded([2, 1], 2)},
                    {}, "edge: equal scores, policy equal to the reference (reinforce_pp)"),
            Example({k: (v.astype(np.float32) if v.dtype.kind == "f" else v) for k, v in worked.items()},
                    {"group_size": 2, "estimator": "reinforce_pp", "kl_coef": 0.1}, "edge: float32 inputs"),
        ]
        ok += self.defaults_pair(worked, "the worked example")
        for est in ("reinforce_pp", "reinforce_pp_baseline"):
            for ex in self.padding_pair(long, {"group_size": 3, "estimator": est, "kl_coef": 0.5},
                                        f"six responses ({est})", FLOATS):
                ok.append(Example(ex.arrays, ex.hyper, ex.label, relation=(f"padding-{est}", ex.relation[1])))
        bad: list[tuple[str, dict, dict]] = [("an unknown estimator 'grpo'", worked, {"estimator": "grpo"}),
               ("B = 4 with group_size = 3", worked, {"group_size": 3, "estimator": "dr_grpo"}),
               ("group_size = 0", worked, {"group_size": 0, "estimator": "reinforce_pp_baseline"}),
               ("one valid token in the whole batch (nothing to whiten)",
                {"scores": f([1.0]), "old_log_prob": f([[-1.0, 0.0]]), "ref_log_prob": f([[-1.0, 0.0]]),
                 "response_mask": right_padded([1], 2)}, {"estimator": "reinforce_pp"})]
        return ok + [Example(a, h, f"contract: {what}", invalid=what) for what, a, h in bad]

    def reference_outputs(self, t: dict, hyper: dict) -> dict:
        return {"advantages": critic_free_advantages(t["scores"], t["old_log_prob"], t["ref_log_prob"],
                                                     t["response_mask"], hyper["group_size"], hyper["estimator"],
                                                     hyper["kl_coef"])}

    def with_derived(self, ex: Example, outputs: dict) -> dict:
        out = super().with_derived(ex, outputs)
        if "advantages" in outputs:
            out[SCALED] = _unit_scale(np.asarray(outputs["advantages"], dtype=np.float64), ex.arrays["response_mask"])
        return out

    def row_step(self, ex: Example) -> int:
        return int(ex.hyper.get("group_size", 1))

    def checks(self) -> list[Check]:
        valid = self.compared("advantages")
        words = {
            "dr_grpo": "the score minus its group's mean on every valid token (no division by the std)",
            "reinforce_pp": "the return of the token reward -kl_coef * (old - ref) plus the score on the last valid "
                            "token, whitened over every valid token of the batch (unbiased variance)",
            "reinforce_pp_baseline": "the score minus its group's mean, whitened over every valid token of the batch",
        }
        out = [
            contract_check("an unknown estimator, a bad group_size or nothing to whiten raises ValueError"),
            Check("worked-example", "reproduces the prompt's worked example",
                  "On the prompt's worked example ({label}) your advantages{at} are {got}; they must be {expected}.",
                  applies=lambda ex: ex.label.startswith(WORKED), fields=(valid,)),
        ]
        for est in ESTIMATORS:
            out.append(Check(est.replace("_", "-"), f"{est}: {words[est]}",
                             f"With estimator={est!r} the advantage is {words[est]}; yours{{at}} is {{got}}, expected "
                             "{expected}.", applies=(lambda e: lambda ex: _tame(ex) and _est(ex) == e)(est),
                             fields=(valid,)))
        out += [
            Check("whitened-mean", "whitened advantages have mean 0 over the batch's valid tokens",
                  "REINFORCE++ whitens over the valid tokens of the whole batch: {detail}.",
                  applies=lambda ex: _tame(ex) and _est(ex) != "dr_grpo", custom=_whitened_stats),
            self.padding_zero_check(),
            Check("padding-nonfinite", "NaN and inf in padding do not reach the advantages",
                  "Padded log-probs hold NaN or inf, yet {detail}; select with where(mask, x, 0) before subtracting "
                  "or summing.", applies=lambda ex: ex.invalid is None and not finite_padding(ex, FLOATS)
                  and bool((ex.arrays["response_mask"].sum(-1) >= 2).all()), custom=_finite_advantages),
            self.defaults_relation("group_size=1, estimator='reinforce_pp', kl_coef=0.01"),
            *[Check(f"padding-contents-{est.replace('_', '-')}", f"what padding holds changes nothing ({est})",
                    "Positions where response_mask is False must not count, whatever they hold: {detail}.",
                    relation=f"padding-{est}", compare=self.padding_relation(()).compare)
              for est in ("reinforce_pp", "reinforce_pp_baseline")],
            Check("matches-reference", "the advantages match the reference on random batches",
                  "Your advantages{at} differ from the reference: expected {expected}, got {got}.", fields=(valid,)),
        ]
        return out

    def axes(self, framework: str) -> list[Axis]:
        out = []
        for est in ESTIMATORS:
            applies = (lambda e: lambda ex: _est(ex) == e)(est)
            out.append(Axis(f"advantages-{est}", f"the advantages with {est}", self.compared("advantages"), applies,
                            group=f"{est}"))
            if est != "dr_grpo":
                out.append(Axis(f"scaled-{est}", f"the advantages up to scale with {est}", SCALED, applies,
                                group=f"{est}-scaled"))
        out.append(Axis("advantages-padding", "the advantages on padded positions", self.on_padding("advantages"),
                        group="padding"))
        return out


SPEC = CriticFreeSpec()
