"""Checker spec of the `grpo-advantages` drill: compute_grpo_advantages(scores, response_mask, group_size,
eps=1e-6, norm_by_std=True) -> advantages [B, T]. GRPO's group-normalised outcome advantage (unbiased
group std + eps), the Dr. GRPO variant without the std, singleton groups (advantage 0), prompt-major
groups, broadcast onto the valid tokens of a right-padded response mask. NumPy and PyTorch alike."""
from __future__ import annotations

import numpy as np
import torch

from checker.reference import grpo_advantages
from checker.sandbox.model import Call, ReturnedArray
from checker.specs.base import (
    Axis,
    Check,
    DrillSpec,
    Example,
    Expected,
    OutputProblem,
    contract_check,
    describe,
    first_where,
)
from checker.specs.losses import grid
from checker.specs.token_batches import (
    draw_lengths,
    related,
    relation_check,
    right_padded,
)

WORKED = "edge: worked example"


def _G(ex: Example) -> int:
    return int(ex.hyper["group_size"])


def _norm(ex: Example) -> bool:
    return bool(ex.hyper.get("norm_by_std", True))


def _groups(ex: Example) -> np.ndarray:
    return np.asarray(ex.arrays["scores"], dtype=np.float64).reshape(-1, _G(ex))


def _constant_group(ex: Example) -> bool:
    g = _groups(ex)
    return _G(ex) > 1 and bool((g.max(axis=1) == g.min(axis=1)).any())


def _ok(ex: Example) -> bool:
    return ex.invalid is None


def _per_response(ex: Example, got: dict) -> np.ndarray:
    """The candidate's advantage of each response, read at its first token (always valid)."""
    return np.asarray(got["advantages"], dtype=np.float64)[:, 0]


def _padding_zero(ex: Example, got: dict) -> str | None:
    adv, mask = np.asarray(got["advantages"]), ex.arrays["response_mask"]
    bad = ~mask & (adv != 0)
    if bad.any():
        b, t = first_where(bad)
        return f"row {b}, t = {t} is padding (the response has {int(mask[b].sum())} tokens) but holds {adv[b, t]:.6g}"
    return None


def _constant_rows(ex: Example, got: dict) -> str | None:
    """Each row holds one value on all its valid tokens (np.allclose of the row with its first valid
    value, rtol 1e-6, atol 1e-9, NaN equal to NaN; every row at once)."""
    adv, mask = np.asarray(got["advantages"], dtype=np.float64), ex.arrays["response_mask"]
    if adv.shape != mask.shape or adv.ndim != 2:
        return None  # the shape has its own check
    first = adv[np.arange(adv.shape[0]), mask.argmax(axis=1)][:, None]
    with np.errstate(invalid="ignore", over="ignore"):
        finite = np.isfinite(adv) & np.isfinite(first)
        ok = (finite & (np.abs(adv - first) <= 1e-9 + 1e-6 * np.abs(first))) | (adv == first) \
            | (np.isnan(adv) & np.isnan(first))
    rows = np.flatnonzero((mask & ~ok).any(axis=1))
    if rows.size:
        b = int(rows[0])
        return f"row {b} holds {np.round(adv[b][mask[b]], 6).tolist()} on its valid tokens"
    return None


def _centred_groups(ex: Example, got: dict) -> str | None:
    per = _per_response(ex, got)
    if not np.isfinite(per).all():
        return None  # non-finite outputs are reported by their own check
    groups = per.reshape(-1, _G(ex))
    scale = max(1.0, float(np.abs(groups).max()))
    for p, g in enumerate(groups):
        if abs(g.mean()) > 1e-5 * scale:
            return (f"the samples of prompt {p} (rows {p * _G(ex)}..{(p + 1) * _G(ex) - 1}) have advantages "
                    f"{np.round(g, 6).tolist()}, mean {g.mean():.6g}")
    return None


def _constant_groups_zero(ex: Example, got: dict) -> str | None:
    groups = _groups(ex)
    per = _per_response(ex, got).reshape(groups.shape)
    for p, (g, a) in enumerate(zip(groups, per)):
        if (g == g[0]).all() and not (np.abs(a) <= 1e-6).all():
            return f"prompt {p} scores {g.tolist()} but gets advantages {np.round(a, 6).tolist()}"
    return None


class GrpoAdvantagesSpec(DrillSpec):
    drill_id = "grpo-advantages"
    function = "compute_grpo_advantages"
    positional = ("scores", "response_mask", "group_size")
    roles = {"std_convention": "the unbiased group std (divide by G - 1)",
             "card:std-bessel-correction": "grpo-group-statistics"}
    hyper_defaults = {"eps": 1e-6, "norm_by_std": True}
    output_fields = ("advantages",)

    # ---- inputs -------------------------------------------------------------------------------
    def strategy(self, framework: str):
        from hypothesis import strategies as st

        @st.composite
        def draw(draw):
            P, G, T = draw(st.integers(1, 3)), draw(st.sampled_from([1, 2, 3, 4, 4, 5])), draw(st.integers(1, 6))
            B = P * G
            if draw(st.booleans()):  # verifiable rewards: right or wrong
                scores = [float(draw(st.integers(0, 1))) for _ in range(B)]
            else:
                scores = [draw(grid(-2.0, 2.0, 0.25)) for _ in range(B)]
            dtype = draw(st.sampled_from([np.float64, np.float64, np.float32]))
            arrays = {"scores": np.array(scores, dtype=dtype),
                      "response_mask": right_padded(draw_lengths(draw, B, T), T)}
            hyper = {"group_size": G}
            norm = draw(st.sampled_from([True, True, False, None]))
            if norm is not None:
                hyper["norm_by_std"] = norm
            if draw(st.integers(0, 3)) == 0:
                hyper["eps"] = 1e-4  # TRL's value
            return Example(arrays, hyper)
        return draw()

    def edge_cases(self, framework: str) -> list[Example]:
        f = lambda xs, dtype=np.float64: np.asarray(xs, dtype=dtype)  # noqa: E731
        worked = {"scores": f([1, 0, 0, 0, 1, 1, 0, 0]), "response_mask": right_padded([3, 1, 2, 3, 1, 3, 2, 1], 3)}
        ok = [
            Example(worked, {"group_size": 4}, f"{WORKED} (GRPO)"),
            Example(worked, {"group_size": 4, "norm_by_std": False}, f"{WORKED} (Dr. GRPO)"),
            Example({"scores": f([1, 0, 0, 0]), "response_mask": right_padded([2, 2, 2, 2], 2)}, {"group_size": 4},
                    "edge: one prompt scored [1, 0, 0, 0]"),
            Example({"scores": f([1, 1, 1, 0, 1, 0]), "response_mask": right_padded([1, 2, 3, 3, 2, 1], 3)},
                    {"group_size": 3}, "edge: a group whose samples are all right (std 0)"),
            Example({"scores": f([0, 0, 0, 0]), "response_mask": right_padded([1, 1, 1, 1], 1)}, {"group_size": 2},
                    "edge: every group constant"),
            Example({"scores": f([0.75, -0.25, 2.0]), "response_mask": right_padded([3, 1, 2], 3)}, {"group_size": 1},
                    "edge: singleton groups (G = 1)"),
            Example({"scores": f([0.75, -0.25, 2.0]), "response_mask": right_padded([3, 1, 2], 3)},
                    {"group_size": 1, "norm_by_std": False}, "edge: singleton groups in Dr. GRPO"),
            Example({"scores": f([1.0, 0.0, -2.0, 0.5]), "response_mask": right_padded([2, 4, 1, 3], 4)},
                    {"group_size": 1, "norm_by_std": False}, "edge: four singleton groups in Dr. GRPO"),
            Example({"scores": f([0.5, 2.0, -1.0, 1.0]), "response_mask": right_padded([64, 1, 17, 3], 64)},
                    {"group_size": 2}, "edge: responses of very different lengths (64, 1, 17, 3 tokens)"),
            Example({"scores": f([1, 0, 1, 1, 0, 0], np.float32), "response_mask": right_padded([4, 1, 2, 4, 3, 1], 4)},
                    {"group_size": 3}, "edge: float32 scores"),
            Example({"scores": f([3.0, 1.0, 2.0, 0.0, 1.0, 5.0]), "response_mask": right_padded([1] * 6, 1)},
                    {"group_size": 2, "eps": 1e-4}, "edge: one token per response, eps = 1e-4"),
        ]
        ok += [related(worked, {"group_size": 4}, "edge: eps and norm_by_std left out", "defaults", "implicit"),
               related(worked, {"group_size": 4, "eps": 1e-6, "norm_by_std": True}, "edge: eps and norm_by_std passed",
                       "defaults", "explicit")]
        bad = [
            ("a batch of 5 responses with group_size 2", {"scores": f([1, 0, 1, 0, 1]),
                                                         "response_mask": right_padded([1] * 5, 1)}, {"group_size": 2}),
            ("group_size 0", {"scores": f([1, 0]), "response_mask": right_padded([1, 1], 1)}, {"group_size": 0}),
        ]
        return ok + [Example(a, h, f"contract: {what}", invalid=what) for what, a, h in bad]

    def shrink(self, ex: Example) -> list[Example]:
        if ex.invalid is not None:
            return []
        out, G = [], _G(ex)
        scores, mask = ex.arrays["scores"], ex.arrays["response_mask"]
        P = scores.shape[0] // G
        if P > 1:
            for p in range(P):
                rows = slice(p * G, (p + 1) * G)
                out.append(Example({"scores": scores[rows], "response_mask": mask[rows]}, dict(ex.hyper), ex.label))
        T = mask.shape[1]
        longest = int(mask.sum(axis=1).max())
        if longest < T:
            out.append(Example({"scores": scores, "response_mask": mask[:, :longest]}, dict(ex.hyper), ex.label))
        if T > 1:
            out.append(Example({"scores": scores, "response_mask": mask[:, :1]}, dict(ex.hyper), ex.label))
        return out

    # ---- running ------------------------------------------------------------------------------
    def to_call(self, ex: Example, framework: str) -> Call:
        scores, mask = (np.array(ex.arrays[k], copy=True) for k in ("scores", "response_mask"))
        if framework == "torch":
            scores, mask = torch.from_numpy(scores), torch.from_numpy(mask)
        hyper = {k: v for k, v in ex.hyper.items() if k != "group_size"}
        return Call((scores, mask, int(ex.hyper["group_size"])), hyper, expect_error=ex.invalid is not None)

    def reference(self, ex: Example, framework: str) -> Expected:
        G = _G(ex)
        scores = torch.tensor(np.asarray(ex.arrays["scores"], dtype=np.float64))
        if G < 1 or scores.shape[0] % G:
            return Expected({}, error="the batch must hold whole groups")
        hyper = {**self.hyper_defaults, **ex.hyper}
        groups = scores.reshape(-1, G)
        if hyper["norm_by_std"]:
            adv = grpo_advantages(groups, eps=hyper["eps"], unbiased=True)
        else:
            adv = groups - groups.mean(dim=-1, keepdim=True)
        mask = torch.from_numpy(ex.arrays["response_mask"].copy())
        out = torch.where(mask, adv.reshape(-1, 1), torch.zeros((), dtype=torch.float64))
        return Expected({"advantages": out.numpy()})

    def extract(self, value, ex: Example, framework: str) -> dict:
        want = "torch tensor" if framework == "torch" else "NumPy array"
        shape = tuple(ex.arrays["response_mask"].shape)

        if not isinstance(value, ReturnedArray) or value.is_torch != (framework == "torch"):
            raise OutputProblem("output-type", f"the advantages must be a {want}; yours are {describe(value)}")
        if tuple(value.shape) != shape:
            raise OutputProblem("output-shape", f"the advantages must have the response mask's shape {shape} "
                                                f"(one value per token); yours have shape {tuple(value.shape)}")
        return {"advantages": np.asarray(value.plain(), dtype=np.float64)}

    def axes(self, framework: str):
        """GRPO (divided by the std) and Dr. GRPO (not) are independent parts of the behaviour."""
        return [Axis("advantages-grpo", "the advantages with norm_by_std=True", "advantages",
                     applies=_norm, group="grpo"),
                Axis("advantages-dr-grpo", "the advantages with norm_by_std=False", "advantages",
                     applies=lambda ex: not _norm(ex), group="dr-grpo")]

    def where(self, mismatch) -> str:
        if len(mismatch.index) == 2:
            return f"row {mismatch.index[0]}, t = {mismatch.index[1]}"
        return super().where(mismatch)

    def checks(self) -> list[Check]:
        adv = ("advantages",)
        return [
            contract_check("a batch that is not whole groups raises ValueError"),
            Check("worked-example", "reproduces the prompt's worked example",
                  "On the prompt's {label}, your advantages are {got}{at}; they must be {expected}.",
                  applies=lambda ex: ex.label.startswith(WORKED), fields=adv),
            Check("padding-zero", "padded positions hold exactly 0",
                  "Padding gets advantage 0 whatever the score: {detail}.", custom=_padding_zero),
            Check("one-value-per-response", "a response's advantage is the same on all its tokens",
                  "The advantage is one number per response, broadcast onto its valid tokens; {detail}.",
                  custom=_constant_rows),
            Check("group-centred", "each prompt's advantages average to zero",
                  "The baseline is the mean of the same prompt's samples (prompt-major: rows p * G .. p * G + G - 1), "
                  "so each group's advantages average to 0; {detail}.", custom=_centred_groups),
            Check("group-std", "GRPO divides by the group's unbiased std + eps",
                  "With norm_by_std=True the advantage is (score - group mean) / (unbiased group std + eps); "
                  "expected {expected}, got {got}{at}.",
                  applies=lambda ex: _ok(ex) and _norm(ex) and _G(ex) > 1 and not _constant_group(ex), fields=adv),
            Check("dr-grpo", "Dr. GRPO is score - group mean, without the std",
                  "With norm_by_std=False the advantage is score - group mean, not divided by anything; "
                  "expected {expected}, got {got}{at}.",
                  applies=lambda ex: _ok(ex) and not _norm(ex) and _G(ex) > 1, fields=adv),
            Check("constant-group", "a group of equal scores gets advantage 0, not NaN",
                  "When all samples of a prompt score the same the std is 0 and the eps keeps 0 / (0 + eps) = 0; "
                  "{detail}.", applies=lambda ex: _ok(ex) and _norm(ex) and _constant_group(ex),
                  custom=_constant_groups_zero),
            Check("singleton-groups", "group_size 1 gives advantage 0",
                  "A group of one sample has nothing to compare with, so every advantage is 0; {detail}.",
                  applies=lambda ex: _ok(ex) and _G(ex) == 1, custom=_constant_groups_zero),
            *relation_check("defaults", "defaults eps = 1e-6, norm_by_std = True",
                            "Called without eps and norm_by_std your function must behave as with eps=1e-6, "
                            "norm_by_std=True passed: {detail}.", "defaults", "implicit", "explicit",
                            "called without them", "with the defaults passed"),
            Check("matches-reference", "advantages match the reference on random batches",
                  "Your advantages differ from the reference{at}: expected {expected}, got {got}.", fields=adv),
        ]


SPEC = GrpoAdvantagesSpec()
