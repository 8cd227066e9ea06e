"""The token-level LLM drills (GRPO advantages, loss aggregation, the full policy loss, explained
variance): metadata, starters and model answers, the prompts' worked examples recomputed from the model
answers, every catalogued mistake differing from the answer on a probe of its own, and the answers
agreeing with the reference core on random padded batches."""
from __future__ import annotations

import ast
import math
import re

import numpy as np
import pytest
import torch

from drills import get_drill, load_drills

LLM_DRILLS = {  # id -> (signature prefix, frameworks, target minutes, topic)
    "grpo-advantages": ("compute_grpo_advantages(scores, response_mask, group_size, eps=1e-6, norm_by_std=True)",
                        ("numpy", "torch"), 8, "grpo"),
    "loss-aggregation": ('agg_loss(loss_mat, loss_mask, loss_agg_mode="token-mean", norm_const=None)',
                         ("numpy", "torch"), 7, "loss-aggregation"),
    "policy-loss-full": ("compute_policy_loss(log_prob, old_log_prob, advantages, response_mask, clip_low=0.2, "
                         'clip_high=0.2, dual_clip=None, loss_agg_mode="token-mean")', ("torch",), 18, "rlhf-actor-loss"),
    "explained-variance": ("explained_variance(values, returns, mask=None)", ("numpy", "torch"), 5,
                           "explained-variance"),
}
LLM_PITFALLS = {  # id -> (base, planted mistake)
    "fix-grpo-reshape": ("grpo-advantages", "grpo-sample-major"),
    "fix-agg-seq-mean-token-sum": ("loss-aggregation", "agg-seq-sum-as-seq-mean"),
    "fix-dual-clip-side": ("policy-loss-full", "policy-dual-clip-positive"),
    "fix-ev-denominator": ("explained-variance", "ev-var-values"),
}
CRIB_SHEET = ["gae", "policy-loss", "value-loss", "total-loss", "actor-loss"]
NAN, INF = float("nan"), float("inf")


def fn(drill_id: str, fw: str, mistake: str | None = None):
    drill = get_drill(drill_id)
    if mistake is None:
        source, path = drill.solution(fw), drill.solution_path(fw)
    else:
        m = next(m for m in drill.mistakes if m.id == mistake)
        source, path = m.source(fw), m.path(fw)
    namespace: dict = {}
    exec(compile(source, str(path), "exec"), namespace)  # noqa: S102 - our own content files
    return namespace[drill.function]


def arr(x, fw, dtype=None):
    if fw == "torch":
        return torch.tensor(x, dtype=dtype or (torch.bool if isinstance(np.asarray(x).flat[0], (bool, np.bool_))
                                                else torch.float64))
    return np.asarray(x, dtype=dtype)


def lengths_mask(lengths, T):
    return (np.arange(T)[None, :] < np.asarray(lengths)[:, None])


def num(x) -> np.ndarray:
    return np.asarray(x.detach() if isinstance(x, torch.Tensor) else x, dtype=np.float64)


# --------------------------------------------------------------------------------------------------
# Metadata, prompts, starters
# --------------------------------------------------------------------------------------------------

def test_llm_drills_follow_the_crib_sheet_drills_in_the_track():
    ids = [d.id for d in load_drills() if d.kind == "core"]
    assert ids[:len(CRIB_SHEET)] == CRIB_SHEET
    assert set(LLM_DRILLS) <= set(ids[len(CRIB_SHEET):])


@pytest.mark.parametrize("drill_id", list(LLM_DRILLS))
def test_metadata_prompts_and_hints(drill_id):
    signature, frameworks, minutes, topic = LLM_DRILLS[drill_id]
    drill = get_drill(drill_id)
    assert drill.signature.startswith(signature)
    assert (drill.frameworks, drill.target_minutes, drill.topic) == (frameworks, minutes, topic)
    assert len(drill.hints) == 3 and all(drill.hints)
    assert len(drill.mistakes) >= 4
    assert not re.search(r"[\u4e00-\u9fff]", drill.prompt)
    assert drill.prompt_zh and re.search(r"[\u4e00-\u9fff]", drill.prompt_zh)
    assert drill.function in drill.prompt_zh
    assert set(re.findall(r"-?\d+\.\d+", drill.prompt)) == set(re.findall(r"-?\d+\.\d+", drill.prompt_zh))
    for text in (drill.prompt, drill.prompt_zh, *drill.hints):
        assert not re.search(r"\b(seed|chapter|lesson)\b", text, re.I), "state the setting, not the source"
    for word in ("right-padded", "Worked example", "ValueError"):
        assert word in drill.prompt, word


@pytest.mark.parametrize("pitfall_id", list(LLM_PITFALLS))
def test_pitfall_drills(pitfall_id):
    base_id, mistake_id = LLM_PITFALLS[pitfall_id]
    drill, base = get_drill(pitfall_id), get_drill(base_id)
    assert (drill.kind, drill.base, drill.mistake_id) == ("pitfall", base_id, mistake_id)
    assert drill.frameworks == base.frameworks and 2 <= drill.target_minutes <= 4
    assert drill.function == base.function and drill.signature == base.signature
    assert drill.prompt.startswith("This code has one bug.")
    assert drill.prompt_zh.startswith("这段代码有一个 bug。")
    assert set(re.findall(r"-?\d+\.\d+", drill.prompt)) == set(re.findall(r"-?\d+\.\d+", drill.prompt_zh))
    for fw in drill.frameworks:
        assert drill.starter(fw) == drill.planted_mistake.source(fw) != drill.solution(fw)
        fixed = [line.strip() for line in drill.solution(fw).splitlines()
                 if line not in drill.starter(fw).splitlines() and line.strip() and not line.strip().startswith("#")]
        assert fixed and not any(line in drill.hints[0] for line in fixed), "hint 1 is a nudge, not the fix"
    ids = [d.id for d in load_drills()]
    assert ids.index(pitfall_id) > max(ids.index(d) for d in LLM_DRILLS)


def test_pitfall_examples_hold():
    grpo = fn("grpo-advantages", "torch")
    out = grpo(torch.tensor([1.0, 2.0, 3.0, 5.0]), torch.ones(4, 1, dtype=torch.bool), 2, norm_by_std=False)
    assert out[:, 0].tolist() == [-0.5, 0.5, -1.0, 1.0]
    policy = fn("policy-loss-full", "torch")
    one = (torch.log(torch.tensor([[1.5]])), torch.zeros(1, 1), torch.ones(1, 1), torch.ones(1, 1, dtype=torch.bool))
    assert math.isclose(policy(*one)[0].item(), -1.2, rel_tol=1e-6)
    assert math.isclose(policy(*one, dual_clip=3.0)[0].item(), -1.2, rel_tol=1e-6)
    assert fn("explained-variance", "numpy")(np.full((1, 4), 0.5), np.array([[1.0, 0.0, 3.0, 2.0]])) == 0.0


def _args(fn_def: ast.FunctionDef):
    return [a.arg for a in fn_def.args.args], [ast.literal_eval(d) for d in fn_def.args.defaults]


@pytest.mark.parametrize("drill_id,fw", [(d, fw) for d, v in LLM_DRILLS.items() for fw in v[1]])
def test_starter_and_solution_signatures(drill_id, fw):
    drill = get_drill(drill_id)
    want = _args(ast.parse(f"def {drill.signature.split(' -> ')[0]}: pass").body[0])
    for source in (drill.starter(fw), drill.solution(fw)):
        defs = [n for n in ast.parse(source).body if isinstance(n, ast.FunctionDef) and n.name == drill.function]
        assert len(defs) == 1 and _args(defs[0]) == want
    starter = get_drill(drill_id).starter(fw)
    assert ast.get_docstring(next(n for n in ast.parse(starter).body if isinstance(n, ast.FunctionDef)))
    namespace: dict = {}
    exec(compile(starter, "starter", "exec"), namespace)  # noqa: S102
    n_required = len(want[0]) - len(want[1])
    with pytest.raises(NotImplementedError):
        namespace[drill.function](*([None] * n_required))
    assert ("import torch" in starter) == (fw == "torch")


# --------------------------------------------------------------------------------------------------
# GRPO group advantages
# --------------------------------------------------------------------------------------------------

GRPO_SCORES = [1.0, 0.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0]
GRPO_LENGTHS = [3, 1, 2, 3, 1, 3, 2, 1]


@pytest.mark.parametrize("fw", ["numpy", "torch"])
def test_grpo_worked_example(fw):
    grpo = fn("grpo-advantages", fw)
    mask = lengths_mask(GRPO_LENGTHS, 3)
    adv = num(grpo(arr(GRPO_SCORES, fw), arr(mask, fw), 4))
    s3 = 1 / math.sqrt(3)  # unbiased std of [1, 1, 0, 0]
    per = [0.75 / (0.5 + 1e-6), -0.25 / (0.5 + 1e-6), -0.25 / (0.5 + 1e-6), -0.25 / (0.5 + 1e-6)] + \
          [0.5 / (s3 + 1e-6)] * 2 + [-0.5 / (s3 + 1e-6)] * 2
    np.testing.assert_allclose(adv, np.where(mask, np.array(per)[:, None], 0.0), rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(np.round(per, 4), [1.5, -0.5, -0.5, -0.5, 0.866, 0.866, -0.866, -0.866])
    assert (adv[~mask] == 0).all()
    dr = num(grpo(arr(GRPO_SCORES, fw), arr(mask, fw), 4, norm_by_std=False))[:, 0]
    np.testing.assert_allclose(dr, [0.75, -0.25, -0.25, -0.25, 0.5, 0.5, -0.5, -0.5])
    population = 0.75 / np.std([1.0, 0, 0, 0])
    assert round(population, 4) == 1.7321


@pytest.mark.parametrize("fw", ["numpy", "torch"])
def test_grpo_singletons_constant_groups_and_float32(fw):
    grpo = fn("grpo-advantages", fw)
    mask = lengths_mask([2, 1, 2], 2)
    for norm in (True, False):
        assert (num(grpo(arr([0.7, -0.3, 2.0], fw), arr(mask, fw), 1, norm_by_std=norm)) == 0).all()
    out = num(grpo(arr([1.0, 1.0, 1.0, 0.0, 1.0, 0.0], fw), arr(lengths_mask([1] * 6, 1), fw), 3))
    assert np.isfinite(out).all() and (out[:3] == 0).all()
    dtype = torch.float32 if fw == "torch" else np.float32
    out32 = grpo(arr([1.0, 0.0, 0.5, 0.5], fw, dtype), arr(lengths_mask([1, 2, 2, 1], 2), fw), 2)
    assert str(out32.dtype).endswith("float32")
    for bad in ((arr([1.0, 0.0, 1.0], fw), 2), (arr([1.0, 0.0], fw), 0)):
        with pytest.raises(ValueError):
            grpo(bad[0], arr(lengths_mask([1] * len(bad[0]), 1), fw), bad[1])


def test_grpo_solutions_match_the_reference():
    from checker.reference import grpo_advantages

    rng = np.random.default_rng(11)
    for P, G, T in ((1, 4, 5), (3, 2, 7), (2, 5, 1), (4, 1, 3)):
        scores = rng.integers(0, 3, P * G).astype(float) / 2
        mask = lengths_mask(rng.integers(1, T + 1, P * G), T)
        want = grpo_advantages(torch.tensor(scores).reshape(P, G)).reshape(-1, 1).numpy()
        want = np.where(mask, want, 0.0)
        for fw in ("numpy", "torch"):
            np.testing.assert_allclose(num(fn("grpo-advantages", fw)(arr(scores, fw), arr(mask, fw), G)), want,
                                       rtol=1e-12, atol=1e-12)


GRPO_PROBES = {  # mistake -> (scores, lengths, T, group_size, hyper)
    "grpo-batch-stats": ([1.0, 0.0, 1.0, 1.0], [1, 2, 2, 1], 2, 2, {}),
    "grpo-no-eps": ([1.0, 1.0, 0.0, 1.0], [1, 1, 1, 1], 1, 2, {}),
    "grpo-sample-major": ([1.0, 2.0, 3.0, 5.0], [1, 1, 1, 1], 1, 2, {"norm_by_std": False}),
    "grpo-std-in-dr-variant": ([1.0, 0.0, 0.0, 0.0], [1, 1, 1, 1], 1, 4, {"norm_by_std": False}),
    "grpo-population-std": ([1.0, 0.0, 0.0, 0.0], [1, 1, 1, 1], 1, 4, {}),
    "grpo-padding-not-zeroed": ([1.0, 0.0], [2, 1], 2, 2, {}),
    "grpo-singleton-raw-score": ([0.7, -0.3], [1, 1], 1, 1, {}),
}


@pytest.mark.parametrize("fw", ["numpy", "torch"])
@pytest.mark.parametrize("mistake", list(GRPO_PROBES))
def test_grpo_mistake_differs_on_its_probe(mistake, fw):
    scores, lengths, T, G, hyper = GRPO_PROBES[mistake]
    args = (arr(scores, fw), arr(lengths_mask(lengths, T), fw), G)
    good = num(fn("grpo-advantages", fw)(*args, **hyper))
    with np.errstate(all="ignore"):
        bad = num(fn("grpo-advantages", fw, mistake)(*args, **hyper))
    assert not np.allclose(good, bad, equal_nan=True), mistake
    assert {m.id for m in get_drill("grpo-advantages").mistakes} == set(GRPO_PROBES)


# --------------------------------------------------------------------------------------------------
# Loss aggregation
# --------------------------------------------------------------------------------------------------

AGG_WORKED = {"token-mean": 1.4, "seq-mean-token-mean": 2.0, "seq-mean-token-sum": 3.5,
              "seq-mean-token-sum-norm": 0.875}


@pytest.mark.parametrize("fw", ["numpy", "torch"])
@pytest.mark.parametrize("pad", [[0.0, 0.0, 0.0], [NAN, INF, -INF]])
def test_agg_worked_example(fw, pad):
    agg = fn("loss-aggregation", fw)
    mask = arr(lengths_mask([4, 1], 4), fw)
    for mode, want in AGG_WORKED.items():
        loss_mat = arr([[1.0, 1.0, 1.0, 1.0], [3.0, *pad]], fw)
        if fw == "torch":
            loss_mat.requires_grad_()
        out = agg(loss_mat, mask, mode)
        assert math.isclose(float(num(out)), want, rel_tol=1e-12), mode
        if fw == "torch":
            out.backward()
            assert torch.isfinite(loss_mat.grad).all() and (loss_mat.grad[1, 1:] == 0).all()
    assert math.isclose(float(agg(arr([[1.0, 1.0, 1.0, 1.0], [3.0, *pad]], fw), mask, "seq-mean-token-sum-norm",
                                  norm_const=8.0)), 0.4375)


def test_agg_gradients_are_the_token_weights():
    agg = fn("loss-aggregation", "torch")
    mask = torch.tensor(lengths_mask([3, 1], 3))
    weights = {"token-mean": [[1 / 4] * 3, [1 / 4, 0, 0]], "seq-mean-token-mean": [[1 / 6] * 3, [1 / 2, 0, 0]],
               "seq-mean-token-sum": [[1 / 2] * 3, [1 / 2, 0, 0]],
               "seq-mean-token-sum-norm": [[1 / 6] * 3, [1 / 6, 0, 0]]}
    for mode, want in weights.items():
        loss_mat = torch.tensor([[0.5, -1.0, 2.0], [1.0, NAN, 3.0]], dtype=torch.float64, requires_grad=True)
        agg(loss_mat, mask, mode).backward()
        torch.testing.assert_close(loss_mat.grad, torch.tensor(want, dtype=torch.float64))
    with pytest.raises(ValueError):
        agg(torch.zeros(1, 1), torch.ones(1, 1, dtype=torch.bool), "seq-mean")
    with pytest.raises(ValueError):
        agg(torch.zeros(1, 1), torch.ones(1, 1, dtype=torch.bool), "seq-mean-token-sum-norm", 0.0)


def test_agg_solutions_match_the_reference():
    from checker.reference import aggregate

    rng = np.random.default_rng(5)
    for B, T in ((1, 1), (3, 6), (5, 64)):
        mask = lengths_mask(rng.integers(1, T + 1, B), T)
        loss = np.where(mask, rng.normal(size=(B, T)), NAN)
        for mode in AGG_WORKED:
            want = float(aggregate(torch.tensor(loss), torch.tensor(mask), mode.replace("-", "_")))
            for fw in ("numpy", "torch"):
                assert math.isclose(float(fn("loss-aggregation", fw)(arr(loss, fw), arr(mask, fw), mode)), want,
                                    rel_tol=1e-12, abs_tol=1e-12)


AGG_PROBES = {  # mistake -> (mode, pads): the worked example under the mode the mistake breaks
    "agg-seq-sum-as-seq-mean": ("seq-mean-token-sum", 0.0),
    "agg-nan-leak": ("token-mean", NAN),
    "agg-token-mean-per-row": ("token-mean", 0.0),
    "agg-sum-norm-no-batch-mean": ("seq-mean-token-sum-norm", 0.0),
    "agg-padding-in-count": ("token-mean", 0.0),
}


@pytest.mark.parametrize("fw", ["numpy", "torch"])
@pytest.mark.parametrize("mistake", list(AGG_PROBES))
def test_agg_mistake_differs_on_its_probe(mistake, fw):
    mode, pad = AGG_PROBES[mistake]
    args = (arr([[1.0, 1.0, 1.0, 1.0], [3.0, pad, pad, pad]], fw), arr(lengths_mask([4, 1], 4), fw), mode)
    with np.errstate(all="ignore"):
        bad = float(fn("loss-aggregation", fw, mistake)(*args))
    assert not math.isclose(bad, AGG_WORKED[mode]) or math.isnan(bad), mistake
    assert {m.id for m in get_drill("loss-aggregation").mistakes} == set(AGG_PROBES)


# --------------------------------------------------------------------------------------------------
# The full policy loss
# --------------------------------------------------------------------------------------------------

RATIOS = [1.5, 1.5, 0.5, 0.5, 5.0, 1.0]
ADV = [1.0, -1.0, 1.0, -1.0, -1.0, 2.0]


def _policy_worked(requires_grad=True):
    old = torch.tensor([[-1.0] * 6 + [-2.0, -INF]], dtype=torch.float64, requires_grad=requires_grad)
    new = torch.tensor([[-1.0 + math.log(r) for r in RATIOS] + [NAN, -INF]], dtype=torch.float64,
                       requires_grad=requires_grad)
    adv = torch.tensor([ADV + [INF, 0.5]], dtype=torch.float64, requires_grad=requires_grad)
    return new, old, adv, torch.tensor(lengths_mask([6], 8))


def test_policy_worked_example():
    policy = fn("policy-loss-full", "torch")
    new, old, adv, mask = _policy_worked()
    loss, stats = policy(new, old, adv, mask)
    assert math.isclose(loss.item(), 0.6, rel_tol=1e-12)
    k3 = sum((r - 1) - math.log(r) for r in RATIOS) / 6
    assert stats == pytest.approx({"clip_frac": 1 / 3, "approx_kl": k3, "ratio_min": 0.5, "ratio_max": 5.0},
                                  rel=1e-12)
    assert round(k3, 5) == 0.49432 and set(stats) == {"clip_frac", "approx_kl", "ratio_min", "ratio_max"}
    assert all(type(v) is float for v in stats.values())
    loss.backward()
    assert old.grad is None and adv.grad is None
    # -dL/dlogp = r A / 6 where the unclipped branch is active, 0 where the clip holds and on padding.
    want = [0.0, 1.5 / 6, -0.5 / 6, 0.0, 5.0 / 6, -2.0 / 6, 0.0, 0.0]
    torch.testing.assert_close(new.grad, torch.tensor([want], dtype=torch.float64))
    new, old, adv, mask = _policy_worked(False)
    dual, _ = policy(new, old, adv, mask, dual_clip=3.0)
    high, _ = policy(new, old, adv, mask, clip_high=0.28)
    assert round(dual.item(), 5) == 0.26667 and round(high.item(), 5) == 0.58667
    band = sum(abs(r - 1) > 0.2 for r in RATIOS) / 6
    k1 = sum(-math.log(r) for r in RATIOS) / 6
    assert (round(band, 5), round(k1, 5)) == (0.83333, -0.17235)


def test_policy_modes_dual_clip_side_and_contract():
    policy = fn("policy-loss-full", "torch")
    new = torch.log(torch.tensor([[1.5, 0.5, 4.0], [2.0, 1.0, 1.0]], dtype=torch.float64))
    old = torch.zeros(2, 3, dtype=torch.float64)
    adv = torch.tensor([[1.0, -1.0, -1.0], [2.0, 0.0, 0.0]], dtype=torch.float64)
    mask = torch.tensor(lengths_mask([3, 1], 3))
    per = [[-1.2, 0.8, 4.0], [-2.4, 0.0, 0.0]]  # -min(r A, clip(r) A), eps 0.2
    want = {"token-mean": (-1.2 + 0.8 + 4.0 - 2.4) / 4, "seq-mean-token-mean": ((-1.2 + 0.8 + 4.0) / 3 - 2.4) / 2,
            "seq-mean-token-sum": ((-1.2 + 0.8 + 4.0) - 2.4) / 2,
            "seq-mean-token-sum-norm": ((-1.2 + 0.8 + 4.0) / 3 - 2.4 / 3) / 2}
    assert per[0][2] == 4.0
    for mode, value in want.items():
        assert math.isclose(policy(new, old, adv, mask, loss_agg_mode=mode)[0].item(), value, rel_tol=1e-12), mode
    # dual clip 3 caps only the A = -1, r = 4 token (4 -> 3); the A > 0 tokens are untouched.
    capped = policy(new, old, adv, mask, dual_clip=3.0)[0].item()
    assert math.isclose(capped, (-1.2 + 0.8 + 3.0 - 2.4) / 4, rel_tol=1e-12)
    for bad in ({"loss_agg_mode": "sum"}, {"dual_clip": 1.0}, {"dual_clip": 0.5}):
        with pytest.raises(ValueError):
            policy(new, old, adv, mask, **bad)


def test_policy_solution_matches_the_reference_with_hostile_padding():
    from checker.reference import policy_loss

    policy = fn("policy-loss-full", "torch")
    gen = torch.Generator().manual_seed(13)
    for B, T in ((1, 1), (3, 5), (4, 64)):
        old = torch.randn(B, T, generator=gen, dtype=torch.float64) - 2.0
        new = old + 0.4 * torch.randn(B, T, generator=gen, dtype=torch.float64)
        adv = torch.randn(B, T, generator=gen, dtype=torch.float64)
        mask = torch.arange(T)[None, :] < torch.randint(1, T + 1, (B,), generator=gen)[:, None]
        for mode in AGG_WORKED:
            for kw in ({}, {"clip_high": 0.28}, {"dual_clip": 3.0, "clip_low": 0.1}):
                want, stats = policy_loss(new, old, adv, mask, mode=mode.replace("-", "_"),
                                          **{"clip_high": 0.2, **kw})  # the reference's default is clip_low
                hostile = [torch.where(mask, x, torch.tensor(v, dtype=torch.float64))
                           for x, v in ((new, NAN), (old, -INF), (adv, INF))]
                loss, got = policy(*hostile, mask, loss_agg_mode=mode, **kw)
                torch.testing.assert_close(loss, want)
                assert got == pytest.approx({"clip_frac": stats.clip_frac_active, "approx_kl": stats.approx_kl,
                                             "ratio_min": stats.ratio_min, "ratio_max": stats.ratio_max}, rel=1e-9)


POLICY_PROBES = {  # mistake -> keyword arguments on the worked example where it must differ
    "policy-dual-clip-positive": {"dual_clip": 3.0},
    "policy-dual-clip-as-min": {"dual_clip": 3.0},
    "policy-clip-bounds-swapped": {"clip_low": 0.1, "clip_high": 0.3},
    "policy-stats-over-padding": {},
    "clip-fraction-outside-band": {},
    "policy-kl-k1": {},
    "policy-padding-nan": {},
}


@pytest.mark.parametrize("mistake", list(POLICY_PROBES))
def test_policy_mistake_differs_on_its_probe(mistake):
    args = _policy_worked(False)
    if mistake == "policy-clip-bounds-swapped":  # on the worked example the two sides' changes cancel out
        args = (torch.log(torch.tensor([[1.5, 0.5]], dtype=torch.float64)), torch.zeros(1, 2, dtype=torch.float64),
                torch.ones(1, 2, dtype=torch.float64), torch.ones(1, 2, dtype=torch.bool))
    good_loss, good = fn("policy-loss-full", "torch")(*args, **POLICY_PROBES[mistake])
    bad_loss, bad = fn("policy-loss-full", "torch", mistake)(*args, **POLICY_PROBES[mistake])
    got = np.array([bad_loss.item(), *bad.values()])
    want = np.array([good_loss.item(), *good.values()])
    assert not np.allclose(got, want, equal_nan=False), mistake
    assert {m.id for m in get_drill("policy-loss-full").mistakes} == set(POLICY_PROBES)


# --------------------------------------------------------------------------------------------------
# Explained variance
# --------------------------------------------------------------------------------------------------

EV_VALUES = [[0.5, 1.0, 2.5], [1.5, NAN, INF]]
EV_RETURNS = [[1.0, 0.0, 3.0], [2.0, -INF, 7.0]]
EV_MASK = lengths_mask([3, 1], 3)


@pytest.mark.parametrize("fw", ["numpy", "torch"])
def test_ev_worked_example_and_relations(fw):
    ev = fn("explained-variance", fw)
    r, v = np.array([1.0, 0.0, 3.0, 2.0]), np.array([0.5, 1.0, 2.5, 1.5])
    want = 1 - np.var(r - v) / np.var(r)
    assert math.isclose(want, 0.6625) and math.isclose(1 - np.mean((r - v) ** 2) / np.var(r), 0.65)
    assert round(1 - np.var(r - v) / np.var(v), 6) == 0.228571
    got = ev(arr(EV_VALUES, fw), arr(EV_RETURNS, fw), arr(EV_MASK, fw))
    assert type(got) is float and math.isclose(got, 0.6625, rel_tol=1e-12)
    flat = arr([[1.0, 0.0, 3.0, 2.0]], fw)
    assert ev(flat, flat) == 1.0                                               # perfect critic
    assert math.isclose(ev(flat + 2.0, flat), 1.0)                             # off by a constant
    assert abs(ev(flat * 0 + 0.7, flat)) < 1e-12                               # constant critic
    assert math.isnan(ev(arr([[0.3, 9.0]], fw), arr([[2.0, 2.0]], fw)))        # Var[R] = 0
    assert math.isnan(ev(arr(EV_VALUES, fw), arr(EV_RETURNS, fw), arr(lengths_mask([1, 0], 3), fw)))  # one token
    with pytest.raises(ValueError):
        ev(arr([[1.0, 2.0]], fw), arr([[1.0, 2.0, 3.0]], fw))


def test_ev_solutions_match_the_reference():
    from checker.reference import explained_variance

    rng = np.random.default_rng(17)
    for B, T in ((1, 2), (3, 6), (4, 64)):
        mask = lengths_mask(rng.integers(1, T + 1, B), T)
        mask[0, :2] = True
        r = rng.normal(size=(B, T))
        v = r + rng.normal(scale=0.7, size=(B, T))
        want = float(explained_variance(torch.tensor(v), torch.tensor(r), torch.tensor(mask)))
        v, r = np.where(mask, v, NAN), np.where(mask, r, INF)
        for fw in ("numpy", "torch"):
            assert math.isclose(fn("explained-variance", fw)(arr(v, fw), arr(r, fw), arr(mask, fw)), want,
                                rel_tol=1e-12)


EV_PROBES = {  # mistake -> (values, returns, mask) where it must differ from the answer
    "ev-ratio-inverted": (EV_VALUES, EV_RETURNS, EV_MASK),
    "ev-unmasked": (EV_VALUES, EV_RETURNS, EV_MASK),
    "ev-var-values": (EV_VALUES, EV_RETURNS, EV_MASK),
    "ev-r2-not-ev": (EV_VALUES, EV_RETURNS, EV_MASK),
    "ev-zero-variance-eps": ([[0.5, 1.0]], [[2.0, 2.0]], None),
    # float32 around 4096, where a one-pass E[x^2] - E[x]^2 is rounding noise
    "ev-one-pass-variance": ([[4096.25, 4095.0, 4098.0, 4096.75]], [[4096.5, 4094.5, 4098.5, 4097.0]], None),
}


@pytest.mark.parametrize("fw", ["numpy", "torch"])
@pytest.mark.parametrize("mistake", list(EV_PROBES))
def test_ev_mistake_differs_on_its_probe(mistake, fw):
    v, r, m = EV_PROBES[mistake]
    dtype = (torch.float32 if fw == "torch" else np.float32) if mistake == "ev-one-pass-variance" else None
    args = (arr(v, fw, dtype), arr(r, fw, dtype), None if m is None else arr(m, fw))
    good = fn("explained-variance", fw)(*args)
    with np.errstate(all="ignore"):
        bad = fn("explained-variance", fw, mistake)(*args)
    assert not (math.isclose(good, bad) or (math.isnan(good) and math.isnan(bad))), mistake
    assert {m.id for m in get_drill("explained-variance").mistakes} == set(EV_PROBES)


# --------------------------------------------------------------------------------------------------
# Mock interviews and the declared failing checks
# --------------------------------------------------------------------------------------------------

def test_mock_interviews_draw_the_llm_drills():
    from cards.plan.mock import plan_mock

    drawn: set[str] = set()
    for seed in range(400):
        drawn.update(i.ref for i in plan_mock(seed, 60).items if i.kind == "drill")
    assert set(LLM_DRILLS) | set(LLM_PITFALLS) <= drawn


@pytest.mark.parametrize("drill_id,fw,a,b", [
    ("policy-loss-full", "torch", "policy-dual-clip-positive", "policy-kl-k1"),        # a loss and a statistic
    ("policy-loss-full", "torch", "policy-clip-bounds-swapped", "policy-stats-over-padding"),
    ("grpo-advantages", "numpy", "grpo-population-std", "grpo-padding-not-zeroed"),
    ("loss-aggregation", "torch", "agg-token-mean-per-row", "agg-sum-norm-no-batch-mean"),
    ("explained-variance", "numpy", "ev-unmasked", "ev-r2-not-ev"),
])
def test_two_mistakes_at_once_are_both_named(drill_id, fw, a, b):
    from checker.catalogue import merge_edits
    from tests.warm_checker import check

    drill = get_drill(drill_id)
    mistakes = {m.id: m for m in drill.mistakes}
    merged = merge_edits(drill.solution(fw), mistakes[a].source(fw), mistakes[b].source(fw))
    assert merged is not None
    report = check(merged, drill_id, fw)
    assert not report.passed and {a, b} <= set(report.mistake_ids), report.render()
