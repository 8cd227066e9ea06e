"""The token-level LLM drills (log-probs from logits, KL estimators, KL-shaped reward, token GAE, masked
whitening) and their fix-the-bug drills: metadata, prompts whose worked numbers the model answers
recompute, model answers that agree with the reference core on random padded batches (garbage in the
padding included), buggy copies that differ from them, and a place in the track and in mock interviews.

The checker side (every answer passes, every starter fails, every mistake is named) is proven for all
drills by tests/test_checker_catalogue.py.
"""
from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
import torch
import yaml

from drills import get_drill, load_drills

ROOT = Path(__file__).resolve().parents[1]
CORE = {  # id -> (signature start, target minutes)
    "token-logprobs": ("token_logprobs(logits, input_ids, response_mask)", 8),
    "token-kl": ('token_kl(log_probs, ref_log_probs, response_mask, estimator="k3")', 7),
    "kl-reward": ("kl_shaped_rewards(log_probs, ref_log_probs, scores, response_mask, kl_coef=0.1)", 7),
    "token-gae": ("token_gae(rewards, values, response_mask, gamma=1.0, lam=0.95)", 10),
    "masked-whiten": ("masked_whiten(advantages, response_mask, shift_mean=True, eps=1e-8)", 6),
}
PITFALLS = {  # id -> (base drill, planted mistake)
    "fix-logprob-shift": ("token-logprobs", "logprob-no-shift"),
    "fix-kl-direction": ("token-kl", "kl-direction-swapped"),
    "fix-reward-last-token": ("kl-reward", "reward-score-last-column"),
    "fix-token-gae-bootstrap": ("token-gae", "tgae-bootstrap-padding"),
    "fix-whiten-eps": ("masked-whiten", "whiten-no-eps"),
    "fix-advantage-normalisation": ("masked-whiten", "whiten-stats-over-padding"),
    "fix-value-detach": ("value-loss", "grad-into-old-values"),
}
NUMPY_TOO = {"token-logprobs", "token-kl", "kl-reward", "token-gae", "masked-whiten"}
CRIB_SHEET = ["gae", "policy-loss", "value-loss", "total-loss", "actor-loss"]
FORBIDDEN = re.compile(r"\b(seed|chapter|lesson)\b|本章|章节", re.I)
DECK = ROOT / "cards" / "decks" / "token-level.yaml"


def solution(drill_id: str):
    drill = get_drill(drill_id)
    namespace: dict = {}
    exec(compile(drill.solution("torch"), str(drill.solution_path("torch")), "exec"), namespace)  # noqa: S102
    return namespace[drill.function]


def mistake(drill_id: str, mistake_id: str):
    drill = get_drill(drill_id)
    m = next(x for x in drill.mistakes if x.id == mistake_id)
    namespace: dict = {}
    exec(compile(m.source("torch"), str(m.path("torch")), "exec"), namespace)  # noqa: S102
    return namespace[drill.function]


def t64(x):
    return torch.tensor(x, dtype=torch.float64)


def prefix(lengths, T):
    return torch.arange(T)[None, :] < torch.tensor(lengths)[:, None]


# ---- metadata and prompts -----------------------------------------------------------------------

@pytest.mark.parametrize("drill_id", list(CORE))
def test_core_metadata(drill_id):
    drill = get_drill(drill_id)
    signature, minutes = CORE[drill_id]
    assert drill.kind == "core" and drill.frameworks == (("numpy", "torch") if drill_id in NUMPY_TOO else ("torch",))
    assert drill.signature.startswith(signature) and drill.target_minutes == minutes
    assert len(drill.hints) == 3 and all(drill.hints)
    assert len(drill.mistakes) >= 4
    assert not re.search(r"[\u4e00-\u9fff]", drill.prompt)
    assert drill.prompt_zh and re.search(r"[\u4e00-\u9fff]", drill.prompt_zh)
    assert drill.function in drill.prompt_zh
    numbers = set(re.findall(r"-?\d+\.\d+", drill.prompt))
    assert numbers == set(re.findall(r"-?\d+\.\d+", drill.prompt_zh)), numbers ^ set(
        re.findall(r"-?\d+\.\d+", drill.prompt_zh))
    for text in (drill.prompt, drill.prompt_zh, *drill.hints):
        assert not FORBIDDEN.search(text), FORBIDDEN.search(text)
    for word in ("bool", "right padding", "## Worked example"):
        assert word in drill.prompt, (drill_id, word)
    assert "float32" in drill.prompt, "each prompt states the dtypes it accepts"


@pytest.mark.parametrize("pitfall_id", list(PITFALLS))
def test_pitfall_metadata(pitfall_id):
    base_id, mistake_id = PITFALLS[pitfall_id]
    drill, base = get_drill(pitfall_id), get_drill(base_id)
    assert (drill.kind, drill.base, drill.mistake_id) == ("pitfall", base_id, mistake_id)
    assert drill.frameworks == (("numpy", "torch") if base_id in NUMPY_TOO else ("torch",))
    assert 2 <= drill.target_minutes <= 4
    assert drill.prompt.startswith("This code has one bug.") and drill.prompt_zh.startswith("这段代码有一个 bug。")
    assert drill.signature == base.signature
    for fw in drill.frameworks:
        assert drill.starter(fw) == drill.planted_mistake.source(fw) != drill.solution(fw)
    fixed = [line.strip() for line in drill.solution("torch").splitlines()
             if line not in drill.starter("torch").splitlines() and line.strip() and not line.strip().startswith("#")]
    assert fixed and not any(line in drill.hints[0] for line in fixed), "hint 1 must not give the fix"
    for text in (drill.prompt, drill.prompt_zh, *drill.hints):
        assert not FORBIDDEN.search(text)


def test_advantage_normalisation_has_its_fix_the_bug_drill():
    assert get_drill("fix-advantage-normalisation").planted_mistake.pitfall_row == "advantage-normalisation"
    assert get_drill("fix-value-detach").planted_mistake.pitfall_row == "stop-gradient"


def test_track_order_puts_the_token_drills_after_the_crib_sheet():
    core = [d.id for d in load_drills() if d.kind == "core"]
    assert core[:5] == CRIB_SHEET
    assert all(core.index(d) > core.index("actor-loss") for d in CORE)
    assert [d for d in core if d in CORE] == list(CORE)
    pitfalls = [d.id for d in load_drills() if d.kind == "pitfall"]
    assert all(pitfalls.index(p) > pitfalls.index("fix-entropy-sign") for p in PITFALLS)


def test_mock_interviews_draw_the_token_drills():
    from cards.plan.mock_plan import plan_mock

    drawn = {item.ref for seed in range(400) for item in plan_mock(seed, 45).drills}
    assert set(CORE) <= drawn, set(CORE) - drawn
    assert {"fix-kl-direction", "fix-advantage-normalisation"} & drawn


def test_mock_questions_follow_a_token_drill_with_its_cards():
    from cards.plan.mock_plan import plan_mock

    for seed in range(200):
        plan = plan_mock(seed, 45)
        for item in plan.items:
            if item.kind == "question" and item.drill == "token-kl":
                return
    pytest.fail("no mock plan asks a follow-up question after the KL drill")


def test_deck_cards_are_bilingual_cite_sources_and_never_the_seeds():
    deck = yaml.safe_load(DECK.read_text(encoding="utf-8"))
    ids = [card["id"] for card in deck["cards"]]
    assert len(ids) >= 10
    for card in deck["cards"]:
        for text in (card["front"], card["back"], card["zh"]["front"], card["zh"]["back"]):
            assert not FORBIDDEN.search(text), (card["id"], FORBIDDEN.search(text))
        assert not FORBIDDEN.search(card["source"]), card["id"]
        assert re.search(r"[\u4e00-\u9fff]", card["zh"]["back"])
    referenced = {c for d in list(CORE) + list(PITFALLS) for c in get_drill(d).cards}
    referenced |= {m.card for d in CORE for m in get_drill(d).mistakes}
    from cards.decks.loader import load_decks

    known = set(load_decks().by_id)
    assert referenced <= known, referenced - known


# ---- worked examples: the model answers give the prompts' numbers -------------------------------

def _in_prompts(drill_id: str, values) -> None:
    drill = get_drill(drill_id)
    for v in np.asarray(values, dtype=np.float64).ravel():
        text = f"{v:.4f}".rstrip("0").rstrip(".") if abs(v) >= 1e-12 else "0.0"
        if "." not in text:
            text += ".0"
        assert text in drill.prompt and text in drill.prompt_zh, (drill_id, text)


def test_token_logprobs_worked_example():
    from checker.specs.token_logprobs import WORKED_IDS, WORKED_LOGITS, WORKED_MASK

    lp, h = solution("token-logprobs")(t64(WORKED_LOGITS), torch.tensor(WORKED_IDS), torch.tensor(WORKED_MASK))
    assert lp.shape == h.shape == (2, 3)
    np.testing.assert_allclose(lp[0, 0].item(), 1 - np.log(np.e + 2), rtol=1e-12)
    np.testing.assert_allclose(lp.numpy(), [[-0.5514, -0.2395, 0.0], [-1.5514, 0.0, 0.0]], atol=5e-5)
    np.testing.assert_allclose(h.numpy(), [[0.9753, 0.6656, 0.0], [0.9753, 0.0, 0.0]], atol=5e-5)
    _in_prompts("token-logprobs", lp.numpy())
    _in_prompts("token-logprobs", h.numpy())
    drill, namespace = get_drill("token-logprobs"), {}
    exec(compile(drill.solution("numpy"), str(drill.solution_path("numpy")), "exec"), namespace)  # noqa: S102
    np_lp, np_h = namespace["token_logprobs"](np.array(WORKED_LOGITS), np.array(WORKED_IDS), np.array(WORKED_MASK))
    np.testing.assert_allclose(np_lp, lp.numpy(), rtol=1e-12)
    np.testing.assert_allclose(np_h, h.numpy(), rtol=1e-12)


def test_token_kl_worked_example():
    from checker.specs.token_kl import WORKED_LOGP, WORKED_MASK, WORKED_REF

    fn = solution("token-kl")
    want = {"k1": ([[0.5, -1.0, 0.0], [0.5, 0.0, 0.0]], 0.0), "k2": ([[0.125, 0.5, 0.0], [0.125, 0.0, 0.0]], 0.1875),
            "k3": ([[0.1065, 0.7183, 0.0], [0.1065, 0.0, 0.0]], 0.2328)}
    for k, (kl_want, mean_want) in want.items():
        kl, mean = fn(t64(WORKED_LOGP), t64(WORKED_REF), torch.tensor(WORKED_MASK), estimator=k)
        np.testing.assert_allclose(kl.numpy(), kl_want, atol=5e-5)
        np.testing.assert_allclose(mean.item(), mean_want, atol=5e-5)
        _in_prompts("token-kl", kl.numpy())
        _in_prompts("token-kl", [mean.item()])
    default, _ = fn(t64(WORKED_LOGP), t64(WORKED_REF), torch.tensor(WORKED_MASK))
    np.testing.assert_allclose(default.numpy(), want["k3"][0], atol=5e-5)


def test_kl_reward_worked_example():
    from checker.specs.kl_reward import WORKED_LENGTHS, WORKED_LOGP, WORKED_REF, WORKED_SCORES

    out = solution("kl-reward")(t64(WORKED_LOGP), t64(WORKED_REF), t64(WORKED_SCORES), prefix(WORKED_LENGTHS, 4), 0.1)
    np.testing.assert_allclose(out.numpy(), [[-0.05, 0.0, 0.1, 1.0], [-0.05, -0.48, 0.0, 0.0], [2.1, 0.0, 0.0, 0.0]],
                               atol=1e-12)
    _in_prompts("kl-reward", out.numpy())


def test_token_gae_worked_example():
    from checker.specs.token_gae import WORKED_LENGTHS, WORKED_REWARDS, WORKED_VALUES

    adv, ret = solution("token-gae")(t64(WORKED_REWARDS), t64(WORKED_VALUES), prefix(WORKED_LENGTHS, 3), 1.0, 0.95)
    np.testing.assert_allclose(adv.numpy(), [[0.4705, 0.39, 0.2], [-0.645, -1.1, 0.0]], atol=1e-12)
    np.testing.assert_allclose(ret.numpy(), [[0.9705, 0.99, 1.0], [-0.445, -1.0, 0.0]], atol=1e-12)
    _in_prompts("token-gae", adv.numpy())
    _in_prompts("token-gae", ret.numpy())


def test_masked_whiten_worked_example():
    from checker.specs.masked_whiten import WORKED_ADV, WORKED_LENGTHS

    fn = solution("masked-whiten")
    on = fn(t64(WORKED_ADV), prefix(WORKED_LENGTHS, 3))
    off = fn(t64(WORKED_ADV), prefix(WORKED_LENGTHS, 3), shift_mean=False)
    z = np.array([-1.5, -0.5, 0.5, 1.5]) / np.sqrt(1.25 + 1e-8)
    np.testing.assert_allclose(on.numpy(), [[z[0], z[1], z[2]], [z[3], 0.0, 0.0]], rtol=1e-12)
    np.testing.assert_allclose(off.numpy(), [[*(z[:3] + 2.5)], [z[3] + 2.5, 0.0, 0.0]], rtol=1e-12)
    _in_prompts("masked-whiten", on.numpy())
    _in_prompts("masked-whiten", off.numpy())


# ---- model answers agree with the reference core on random padded batches -----------------------

def _batch(gen, B, T, garbage):
    lengths = torch.randint(1, T + 1, (B,), generator=gen)
    lengths[0] = T
    mask = torch.arange(T)[None, :] < lengths[:, None]

    def poisoned(x):
        return torch.where(mask, x, torch.full((), garbage, dtype=x.dtype))
    return mask, poisoned


@pytest.mark.parametrize("garbage", [0.0, 3.0, float("nan"), float("inf")])
def test_solutions_match_the_reference(garbage):
    from checker import reference as ref
    from checker.reference.tokens import token_gae, token_logprobs

    gen = torch.Generator().manual_seed(21)
    for B, T in ((1, 1), (3, 6), (4, 17)):
        mask, poisoned = _batch(gen, B, T, garbage)
        logp = poisoned(-torch.rand(B, T, generator=gen, dtype=torch.float64) * 4)
        ref_logp = poisoned(-torch.rand(B, T, generator=gen, dtype=torch.float64) * 4)
        for k in ("k1", "k2", "k3"):
            kl, mean = solution("token-kl")(logp, ref_logp, mask, k)
            want = torch.where(mask, ref.kl_per_token(logp, ref_logp, k), torch.zeros((), dtype=torch.float64))
            torch.testing.assert_close(kl, want)
            torch.testing.assert_close(mean, want.sum() / mask.sum())
        scores = torch.randn(B, generator=gen, dtype=torch.float64)
        torch.testing.assert_close(solution("kl-reward")(logp, ref_logp, scores, mask, 0.2),
                                   ref.kl_shaped_rewards(logp, ref_logp, scores, mask, beta=0.2))
        rewards, values = poisoned(torch.randn(B, T, generator=gen, dtype=torch.float64)), poisoned(
            torch.randn(B, T, generator=gen, dtype=torch.float64))
        for gamma, lam in ((1.0, 0.95), (0.9, 0.0), (1.0, 1.0)):
            got = solution("token-gae")(rewards, values, mask, gamma, lam)
            for g, w in zip(got, token_gae(rewards, values, mask, gamma, lam)):
                torch.testing.assert_close(g, w)
        adv = poisoned(torch.randn(B, T, generator=gen, dtype=torch.float64) * 5)
        for shift in (True, False):
            zero = torch.zeros((), dtype=torch.float64)
            want = torch.where(mask, ref.masked_whiten(adv, mask, shift_mean=shift), zero)
            torch.testing.assert_close(solution("masked-whiten")(adv, mask, shift), want)
        V = 7
        ids = torch.randint(0, V, (B, T + 1), generator=gen)
        rmask = torch.zeros(B, T + 1, dtype=torch.bool)
        rmask[:, 1:] = mask
        logits = torch.randn(B, T + 1, V, generator=gen, dtype=torch.float64) * 3
        logits[:, :-1][~mask] = garbage
        got = solution("token-logprobs")(logits, ids, rmask)
        for g, w in zip(got, token_logprobs(logits, ids, rmask)):
            torch.testing.assert_close(g, w)


def test_token_logprobs_keeps_float32_and_large_logits_finite():
    fn = solution("token-logprobs")
    logits = torch.tensor([[[0.0, -800.0, 3.0], [0.0, 0.0, 0.0]]], dtype=torch.float32)
    lp, h = fn(logits, torch.tensor([[0, 1]]), torch.tensor([[False, True]]))
    assert lp.dtype == torch.float32 and torch.isfinite(lp).all() and torch.isfinite(h).all()
    assert abs(lp[0, 0].item() - (-803.0 - np.log1p(np.exp(-3.0)))) < 1e-3


def test_the_shift_cards_numbers_and_numpy_code_are_those_of_the_drill():
    deck = {c["id"]: c for c in yaml.safe_load(DECK.read_text(encoding="utf-8"))["cards"]}
    logits, ids = t64([WORKED_ROW0_LOGITS]), torch.tensor([[2, 0, 1, 0]])
    mask = torch.tensor([[False, True, True, False]])
    back = deck["tok-logprob-shift-numbers"]["back"]
    for fn in (solution("token-logprobs"), mistake("token-logprobs", "logprob-no-shift"),
               mistake("token-logprobs", "logprob-mask-not-shifted")):
        lp, _ = fn(logits, ids, mask)
        assert "[" + ", ".join(f"{x:.4f}" if x else "0.0" for x in lp[0].tolist()) + "]" in back
    code = re.search(r"```python\n(.*?)```", deck["tok-log-softmax-numpy"]["back"], re.S).group(1)
    big = np.array([[[0.0, -800.0, 3.0], [np.nan, np.inf, 1.0]]])
    namespace = {"np": np, "logits": big, "input_ids": np.array([[0, 1]]), "response_mask": np.array([[False, True]])}
    exec(code, namespace)  # noqa: S102
    assert namespace["log_probs"].shape == (1, 1)
    assert namespace["log_probs"][0, 0] == pytest.approx(-803.0 - np.log1p(np.exp(-3.0)))


WORKED_ROW0_LOGITS = [[1.0, 0.0, 0.0], [0.0, 2.0, 0.0], [0.0, 0.0, 0.0], [3.0, 0.0, 0.0]]


def test_masked_whiten_handles_a_single_valid_token_and_constant_batches():
    fn = solution("masked-whiten")
    one = fn(t64([[4.0, float("nan")]]), torch.tensor([[True, False]]))
    assert one.tolist() == [[0.0, 0.0]]
    flat = fn(t64([[0.5, 0.5], [0.5, 0.5]]), torch.ones(2, 2, dtype=torch.bool), shift_mean=False)
    assert flat.tolist() == [[0.5, 0.5], [0.5, 0.5]]


# ---- every buggy copy differs from its model answer on the drill's own edge cases ---------------

MISTAKES = [(d, m.id) for d in CORE for m in get_drill(d).mistakes]


@pytest.mark.parametrize("drill_id,mistake_id", MISTAKES)
def test_buggy_copy_differs_on_an_edge_case(drill_id, mistake_id):
    from checker.specs import spec_for
    from checker.trusted import run_trusted

    spec = spec_for(drill_id)
    examples = [ex for ex in spec.edge_cases("torch") if ex.invalid is None]
    calls = [spec.to_call(ex, "torch") for ex in examples]
    good = run_trusted(solution(drill_id), calls)
    bad = run_trusted(mistake(drill_id, mistake_id), calls)
    differs = 0
    for ex, g, b in zip(examples, good, bad):
        if not b.ok:
            differs += 1
            continue
        out_g, out_b = spec.extract(g.value, ex, "torch"), spec.extract(b.value, ex, "torch")
        if any(not np.allclose(out_g[k], out_b[k], rtol=1e-7, atol=1e-9, equal_nan=True) for k in out_g):
            differs += 1
        elif any((g.grads.get(k) is None) != (b.grads.get(k) is None) for k in g.grads):
            differs += 1  # the same values, but the gradient is cut
    assert differs >= 1, f"{mistake_id} behaves like the model answer on every edge case"


def _numpy_solution(drill_id: str):
    drill = get_drill(drill_id)
    namespace: dict = {}
    exec(compile(drill.solution("numpy"), str(drill.solution_path("numpy")), "exec"), namespace)  # noqa: S102
    return namespace[drill.function]


@pytest.mark.parametrize("garbage", [0.0, 5.0, float("nan"), float("inf")])
def test_numpy_solutions_match_the_reference(garbage):
    from checker import reference as ref
    from checker.reference.tokens import token_gae

    rng = np.random.default_rng(31)
    gae_np, whiten_np = _numpy_solution("token-gae"), _numpy_solution("masked-whiten")
    for B, T in ((1, 1), (2, 5), (4, 16)):
        lengths = rng.integers(1, T + 1, B)
        lengths[0] = T
        mask = np.arange(T)[None, :] < lengths[:, None]
        poison = lambda x, mask=mask: np.where(mask, x, garbage)  # noqa: E731
        rewards, values, adv = (poison(rng.normal(size=(B, T))) for _ in range(3))
        with np.errstate(invalid="ignore"):
            for gamma, lam in ((1.0, 0.95), (0.9, 0.0), (1.0, 1.0)):
                got = gae_np(rewards, values, mask, gamma, lam)
                for g, w in zip(got, token_gae(rewards, values, mask, gamma, lam)):
                    np.testing.assert_allclose(g, w.numpy(), rtol=1e-12, atol=1e-12)
            for shift in (True, False):
                want = np.where(mask, ref.masked_whiten(adv, torch.from_numpy(mask), shift_mean=shift).numpy(), 0.0)
                np.testing.assert_allclose(whiten_np(adv, mask, shift), want, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("garbage", [0.0, float("nan"), float("inf")])
def test_numpy_kl_and_reward_match_the_reference(garbage):
    from checker import reference as ref

    rng = np.random.default_rng(37)
    kl_np, reward_np = _numpy_solution("token-kl"), _numpy_solution("kl-reward")
    for B, T in ((1, 1), (3, 7)):
        lengths = rng.integers(1, T + 1, B)
        mask = np.arange(T)[None, :] < lengths[:, None]
        logp = np.where(mask, -rng.uniform(0, 4, (B, T)), garbage)
        ref_logp = np.where(mask, -rng.uniform(0, 4, (B, T)), garbage)
        for k in ("k1", "k2", "k3"):
            kl, mean = kl_np(logp, ref_logp, mask, k)
            want = np.where(mask, ref.kl_per_token(logp, ref_logp, k).numpy(), 0.0)
            np.testing.assert_allclose(kl, want, rtol=1e-12, atol=1e-12)
            assert np.ndim(mean) == 0 and np.isclose(float(mean), want.sum() / mask.sum())
        scores = rng.normal(size=B)
        want = ref.kl_shaped_rewards(logp, ref_logp, scores, torch.from_numpy(mask), beta=0.3).numpy()
        np.testing.assert_allclose(reward_np(logp, ref_logp, scores, mask, 0.3), want, rtol=1e-12, atol=1e-12)
