"""The drills of the objectives beside PPO (rollout/trainer mismatch correction, GSPO, DAPO, critic-free
advantages, CISPO, the KL loss's gradient, micro-batch loss scaling): metadata and bilingual prompts, the
prompts' worked examples recomputed from the model answers in every framework, the fix-the-bug twins'
examples, the model answers against the reference core on random batches, and each drill's diagnosis
corpus covering every catalogued mistake. Every mistake's verdict (rejected, named, failing only its
declared checks) is tested with every core drill's in test_checker_catalogue.py."""
from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pytest
import torch

from checker.trusted import load_function
from drills import get_drill, load_drills

CORPUS = Path(__file__).parent / "diagnosis"
DRILLS = {  # id -> (frameworks, target minutes, topic, a primary source the prompt names)
    "rollout-correction": (("numpy", "torch"), 15, "rollout-correction", "rollout_corr_helper.py"),
    "gspo-loss": (("numpy", "torch"), 12, "gspo", "Zheng et al. 2025"),
    "dapo-loss": (("numpy", "torch"), 15, "dapo", "Yu et al. 2025"),
    "critic-free-advantages": (("numpy", "torch"), 12, "critic-free-advantages", "Hu 2025"),
    "cispo-loss": (("torch",), 8, "cispo", "MiniMax 2025"),
    "kl-loss": (("torch",), 7, "kl-loss", "Schulman"),
    "grad-accumulation": (("numpy", "torch"), 7, "grad-accumulation", "agg_loss"),
}
TWINS = {  # fix-the-bug drill -> (base, planted mistake)
    "fix-mismatch-weight": ("rollout-correction", "mis-weight-from-current-policy"),
    "fix-gspo-length-norm": ("gspo-loss", "gspo-no-length-norm"),
    "fix-dapo-filter": ("dapo-loss", "dapo-filter-on-rewards"),
    "fix-rpp-normalisation": ("critic-free-advantages", "rpp-local-normalisation"),
    "fix-cispo-detach": ("cispo-loss", "cispo-weight-not-detached"),
    "fix-kl-straight-through": ("kl-loss", "kl-straight-through-reversed"),
    "fix-accum-normaliser": ("grad-accumulation", "accum-mean-of-means"),
}
POINTS_AT_A_DOCUMENT = re.compile(r"\bseed\b|the chapter|the lesson|the tutorial|crib[- ]sheet|本章|章节|课程|教程", re.I)


def solution(drill_id: str, fw: str):
    d = get_drill(drill_id)
    return load_function(d.solution(fw), d.function, f"<{drill_id}:{fw}>")


def t(x, dtype=torch.float64):
    return torch.tensor(x, dtype=dtype)


def num(x) -> np.ndarray:
    return np.asarray(x.detach() if isinstance(x, torch.Tensor) else x, dtype=np.float64)


def lengths_mask(lengths, T):
    return np.arange(T)[None, :] < np.asarray(lengths)[:, None]


def call(drill_id: str, fw: str, arrays: list, *args, grad: bool = False, **kw):
    """The model answer on `arrays` (NumPy arrays, converted for PyTorch; the first one trainable when
    `grad`), returning (outputs, the gradient w.r.t. the first array or None)."""
    fn = solution(drill_id, fw)
    if fw == "numpy":
        return fn(*arrays, *args, **kw), None
    ts = [torch.tensor(a, requires_grad=(grad and i == 0)) if a.dtype != bool else torch.tensor(a)
          for i, a in enumerate(arrays)]
    out = fn(*ts, *args, **kw)
    g = None
    if grad:
        loss = out[0] if isinstance(out, tuple) else out
        (loss if loss.dim() == 0 else loss.sum()).backward()
        g = ts[0].grad.numpy().copy()
    return out, g


# --------------------------------------------------------------------------------------------------
# Metadata, prompts, hints
# --------------------------------------------------------------------------------------------------

def test_the_drills_follow_the_update_loop_in_the_track():
    core = [d.id for d in load_drills() if d.kind == "core"]
    assert core.index("ppo-update") < min(core.index(d) for d in DRILLS)
    ids = [d.id for d in load_drills()]
    assert all(ids.index(f) > ids.index("fix-old-logp-in-loop") for f in TWINS)


@pytest.mark.parametrize("drill_id", list(DRILLS))
def test_metadata_prompts_and_hints(drill_id):
    frameworks, minutes, topic, source = DRILLS[drill_id]
    d = get_drill(drill_id)
    assert (d.kind, d.frameworks, d.target_minutes, d.topic) == ("core", frameworks, minutes, topic)
    assert source in d.prompt, "the prompt names its primary source"
    assert len(d.hints) == 3 and d.hints[2].startswith("**Shows the answer.**"), "hints escalate to a marked reveal"
    assert not any("Shows the answer" in h for h in d.hints[:2])
    assert len(d.mistakes) >= 6
    assert not re.search(r"[\u4e00-\u9fff]", d.prompt) and re.search(r"[\u4e00-\u9fff]", d.prompt_zh.splitlines()[0])
    assert d.function in d.prompt_zh
    assert set(re.findall(r"-?\d+\.\d+", d.prompt)) == set(re.findall(r"-?\d+\.\d+", d.prompt_zh))
    for word in ("right-padded", "Worked example", "ValueError", "Input contract"):
        assert word in d.prompt or word.lower() in d.prompt.lower(), word
    for text in (d.prompt, d.prompt_zh, d.title, *d.hints):
        assert not POINTS_AT_A_DOCUMENT.search(text), "state the setting, not the source documents"


@pytest.mark.parametrize("twin", list(TWINS))
def test_fix_the_bug_twins(twin):
    base_id, mistake_id = TWINS[twin]
    d, base = get_drill(twin), get_drill(base_id)
    assert (d.kind, d.base, d.mistake_id) == ("pitfall", base_id, mistake_id)
    assert d.frameworks == base.frameworks and d.function == base.function and d.signature == base.signature
    assert d.prompt.startswith("This code has one bug.") and d.prompt_zh.startswith("这段代码有一个 bug。")
    assert set(re.findall(r"-?\d+\.\d+", d.prompt)) == set(re.findall(r"-?\d+\.\d+", d.prompt_zh))
    assert d.hints[2].startswith("**Shows the answer.**")
    for fw in d.frameworks:
        assert d.starter(fw) == d.planted_mistake.source(fw) != d.solution(fw)


# --------------------------------------------------------------------------------------------------
# The prompts' worked examples, recomputed from the model answers
# --------------------------------------------------------------------------------------------------

def close(got, want, tol=5e-5):
    np.testing.assert_allclose(num(got), np.asarray(want, dtype=np.float64), rtol=0, atol=tol)


RC = {"new": [[-0.8, -0.5, -2.1], [-0.2, -1.2, 0.0]], "old": [[-1.0, -0.5, -2.0], [-0.3, -1.2, 0.0]],
      "roll": [[-1.5, -0.5, -1.0], [-0.3, -2.0, 0.0]], "adv": [[1.0, 1.0, 1.0], [-1.0, -1.0, 0.0]]}
RC_TABLE = {("token", "truncate"): ([[1.6487, 1.0, 0.3679], [1.0, 2.0, 0.0]], -0.04123),
            ("token", "mask"): ([[1.6487, 1.0, 0.0], [1.0, 0.0, 0.0]], -0.62443),
            ("sequence", "truncate"): ([[0.6065, 0.6065, 0.6065], [2.0, 2.0, 0.0]], 0.46543),
            ("sequence", "mask"): ([[0.6065, 0.6065, 0.6065], [0.0, 0.0, 0.0]], -0.62773)}


@pytest.mark.parametrize("fw", ["numpy", "torch"])
def test_rollout_correction_worked_example(fw):
    mask = lengths_mask([3, 2], 3)
    arrays = [np.array(RC[k]) for k in ("new", "old", "roll", "adv")] + [mask]
    assert "[[1.6487, 1.0, 0.3679], [1.0, 2.2255]]" in get_drill("rollout-correction").prompt
    for (level, mode), (weights, loss) in RC_TABLE.items():
        (got_loss, got_w), g = call("rollout-correction", fw, arrays, level=level, mode=mode,
                                    grad=(fw == "torch" and (level, mode) == ("token", "truncate")))
        close(got_loss, loss, 5e-6)
        close(got_w, weights, 5e-5)
        if g is not None:
            close(g, [[0, -0.2, -0.0666], [0.221, 0.4, 0]], 5e-5)
    np.testing.assert_allclose(np.exp(np.array(RC["old"]) - np.array(RC["roll"]))[1, 1], 2.2255, atol=5e-5)


@pytest.mark.parametrize("fw", ["numpy", "torch"])
def test_gspo_worked_example(fw):
    old = np.array([[-1.0, -2.0, -0.5], [-1.5, -0.25, 0.0]])
    lr = np.array([[2e-4, -4e-4, 5e-4], [1e-3, 5e-4, 0.0]])
    mask = lengths_mask([3, 2], 3)
    for adv, loss, grad in (([[1.0, 1, 1], [-0.5, -0.5, 0]], -0.24986243,
                             [[-0.166683, -0.166683, -0.166683], [0.125094, 0.125094, 0]]),
                            ([[1.0, -1, 2], [-0.5, 1.5, 0]], -0.58342288,
                             [[-0.166683, 0.166683, -0.333367], [0.125094, 0, 0]])):
        (got_loss, s), g = call("gspo-loss", fw, [old + lr, old, np.array(adv), mask], grad=fw == "torch")
        close(got_loss, loss, 5e-9)
        close(s, [1.00010001, 1.00075028], 5e-9)
        if g is not None:
            close(g, grad, 5e-7)


DAPO_LENGTHS = [5, 3, 2, 6, 4, 1, 6, 6, 4]


def dapo_inputs():
    from checker.specs.dapo_loss import WORKED_LR, WORKED_OLD, WORKED_SCORES, WORKED_TRUNCATED

    mask = lengths_mask(DAPO_LENGTHS, 6)
    old = np.where(mask, np.array(WORKED_OLD), 0.0)
    return [old + np.where(mask, np.array(WORKED_LR), 0.0), old, np.array(WORKED_SCORES), mask,
            np.array(WORKED_TRUNCATED)]


@pytest.mark.parametrize("fw", ["numpy", "torch"])
def test_dapo_worked_example(fw):
    arrays = dapo_inputs()
    (loss, adv, lm), g = call("dapo-loss", fw, arrays, 3, 6, 2, grad=fw == "torch")
    close(loss, -0.251625, 5e-7)
    close(adv, [0, -0.999998, 0.999998, 0, 0, 0, -0.999999, 0, 0.999999], 5e-7)
    assert int(num(lm).sum()) == 14 and num(lm)[[0, 1, 2, 8]].sum() == 14
    if g is not None:
        m = arrays[3]
        close(g[0][m[0]], [0] * 5)
        close(g[1][m[1]], [0.07143, 0.09172, 0])
        close(g[2][m[2]], [-0.08724, 0])
        close(g[8][m[8]], [-0.05563, -0.08724, -0.07143, -0.07894])
    (loss, _, lm), _ = call("dapo-loss", fw, arrays, 3, 6, 2, overlong_filter=False)
    close(loss, 0.114195, 5e-7)
    assert int(num(lm).sum()) == 26
    (loss, _, _), _ = call("dapo-loss", fw, arrays, 3, 6, 2, clip_high=0.2)
    close(loss, -0.242853, 5e-7)
    prompt = get_drill("dapo-loss").prompt
    for text in ("[-0.5, 0, 0, -1, 0, 0, -1, -1, 0]", "[0.5, 0, 1, 0, 1, 1, -1, 0, 1]"):
        assert text in prompt
    from checker.reference.dapo import overlong_penalty

    close(overlong_penalty(t(DAPO_LENGTHS), 6, 2), [-0.5, 0, 0, -1, 0, 0, -1, -1, 0])


CF = {"scores": [1.0, 0.0, 0.0, 1.0],
      "old": [[-1.0, -0.5, -2.0], [-0.3, 0.0, 0.0], [-1.2, -0.8, 0.0], [-0.6, -1.5, -0.2]],
      "ref": [[-1.5, -0.5, -1.0], [-0.8, 0.0, 0.0], [-1.2, -1.8, 0.0], [-0.6, -0.5, -0.7]]}


@pytest.mark.parametrize("fw", ["numpy", "torch"])
def test_critic_free_worked_example(fw):
    mask = lengths_mask([3, 1, 2, 3], 3)
    arrays = [np.array(CF["scores"]), np.array(CF["old"]), np.array(CF["ref"]), mask]
    want = {"dr_grpo": np.where(mask, np.array([[0.5], [-0.5], [-0.5], [0.5]]), 0.0),
            "reinforce_pp": [[0.6645, 0.7525, 0.7525], [-1.2704, 0, 0], [-1.3583, -1.3583, 0], [0.6645, 0.6645, 0.4886]],
            "reinforce_pp_baseline": [[0.6667, 0.6667, 0.6667], [-1.3333, 0, 0], [-1.3333, -1.3333, 0],
                                      [0.6667, 0.6667, 0.6667]]}
    for est, adv in want.items():
        got, _ = call("critic-free-advantages", fw, arrays, 2, est, 0.1)
        close(got, adv, 5e-5)
    rewards = np.where(mask, -0.1 * (np.array(CF["old"]) - np.array(CF["ref"])), 0.0)
    rewards[np.arange(4), mask.sum(1) - 1] += CF["scores"]
    close(rewards[mask], [-0.05, 0, 1.1, -0.05, 0, -0.1, 0, 0.1, 0.95], 1e-12)


def test_cispo_worked_example():
    lp = t([[-1.0, -0.5, -2.0], [-0.7, -1.2, 0.0]]).requires_grad_(True)
    old, adv = t([[-1.4, -0.5, -1.5], [-0.7, -1.0, 0.0]]), t([[1.0, 1, 1], [-0.5, -0.5, 0]])
    mask = torch.tensor(lengths_mask([3, 2], 3))
    fn = solution("cispo-loss", "torch")
    loss, w = fn(lp, old, adv, mask)
    loss.backward()
    close(loss, 0.43036, 5e-6)
    close(w, [[1.28, 1.0, 0.6065], [1.0, 0.8187, 0]], 5e-5)
    close(lp.grad, [[-0.256, -0.2, -0.1213], [0.1, 0.0819, 0]], 5e-5)
    loss2, w2 = fn(lp.detach(), old, adv, mask, eps_low=0.2)
    close(loss2, 0.50775, 5e-6)
    close(w2, [[1.28, 1.0, 0.8], [1.0, 0.8187, 0]], 5e-5)


def test_kl_loss_worked_example():
    fn = solution("kl-loss", "torch")
    table = {"k1": (-0.25, [0.5, 0.5, 0]), "k2": (0.3125, [0.25, -0.5, 0]), "k3": (0.41241, [0.19673, -0.85914, 0]),
             "k3+": (0.41241, [0.25, -0.5, 0])}
    for kind, (value, grad) in table.items():
        lp = t([[-1.0, -2.0, 0.0]]).requires_grad_(True)
        loss = fn(lp, t([[-1.5, -1.0, 0.0]]), torch.tensor(lengths_mask([2], 3)), kind)
        loss.backward()
        close(loss, value, 5e-6)
        close(lp.grad[0], grad, 5e-6)


@pytest.mark.parametrize("fw", ["numpy", "torch"])
def test_grad_accumulation_worked_example(fw):
    from checker.specs.grad_accumulation import WORKED_LENGTHS, WORKED_LOSS

    mask = np.arange(3) < np.asarray(WORKED_LENGTHS)[..., None]
    loss = np.asarray(WORKED_LOSS)
    got, g = call("grad-accumulation", fw, [loss, mask], grad=fw == "torch")
    close(got, [[1.5, 1.5], [0.5, 1.25]], 1e-12)
    assert math.isclose(float(num(got).sum()) / 2, 19 / 8)
    if g is not None:
        close(g, np.where(mask, 0.25, 0.0), 1e-12)
    got, _ = call("grad-accumulation", fw, [loss, mask], loss_agg_mode="seq-mean-token-mean")
    close(got, [[1.0, 1.5], [0.5, 2.5]], 1e-12)


def test_the_twins_examples_hold():
    cispo = solution("cispo-loss", "torch")
    lp = t([[-0.5]]).requires_grad_(True)
    loss, _ = cispo(lp, t([[-0.6]]), t([[1.0]]), torch.tensor([[True]]))
    loss.backward()
    close(loss, 0.55259, 5e-6)
    close(lp.grad, [[-1.10517]], 5e-6)
    kl = solution("kl-loss", "torch")
    lp = t([[-1.0]]).requires_grad_(True)
    loss = kl(lp, t([[-1.5]]), torch.tensor([[True]]), "k3+")
    loss.backward()
    close(loss, 0.10653, 5e-6)
    close(lp.grad, [[0.5]], 1e-12)
    accum = solution("grad-accumulation", "numpy")
    close(accum(np.array([[[[1.0, 3.0]], [[5.0, 0.0]]]]), np.array([[[[True, True]], [[True, False]]]])),
          [[1.33333, 1.66667]], 5e-6)
    gspo = solution("gspo-loss", "numpy")
    loss, s = gspo(np.array([[-1 + 1e-4, -2 + 3e-4]]), np.array([[-1.0, -2.0]]), np.ones((1, 2)), np.ones((1, 2), bool))
    close(s, [1.00020002], 5e-9)
    close(loss, -1.00020002, 5e-9)
    rpp = solution("critic-free-advantages", "numpy")
    lp2 = np.array([[-1.0, -2.0], [-0.5, 0.0]])
    close(rpp(np.array([1.0, 0.0]), lp2, lp2, lengths_mask([2, 1], 2)), [[0.57735, 0.57735], [-1.1547, 0]], 5e-6)
    rc = solution("rollout-correction", "torch")
    lp = t([[-0.9]]).requires_grad_(True)
    loss, w = rc(lp, t([[-1.0]]), t([[-1.2]]), t([[1.0]]), torch.tensor([[True]]))
    loss.backward()
    close(w, [[1.2214]], 5e-5)
    close(loss, -1.34986, 5e-6)
    close(lp.grad, [[-1.34986]], 5e-6)
    dapo = solution("dapo-loss", "numpy")
    lp3 = np.array([[-1.0, -0.5, 0, 0], [-0.3, -0.2, -0.4, -0.6]])
    loss, adv, lm = dapo(lp3, lp3, np.array([1.0, 1.0]), lengths_mask([2, 4], 4), np.array([False, False]), 2, 4, 2)
    assert loss == 0.0 and (adv == 0).all() and not lm.any()


# --------------------------------------------------------------------------------------------------
# The model answers against the reference core, and each corpus
# --------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("fw", ["numpy", "torch"])
def test_numpy_and_torch_answers_agree_with_the_reference_on_random_batches(fw):
    from checker.reference.critic_free import critic_free_advantages
    from checker.reference.mismatch import corrected_policy_loss
    from checker.reference.sequence_ratio import gspo_loss

    rng = np.random.default_rng(5)
    for _ in range(4):
        B, T = 4, 5
        mask = lengths_mask(rng.integers(1, T + 1, B), T)
        old = np.round(rng.uniform(-3, -0.2, (B, T)), 3)
        new = old + np.round(rng.uniform(-0.4, 0.4, (B, T)), 3)
        roll = old + np.round(rng.uniform(-1, 1, (B, T)), 3)
        adv = np.round(rng.normal(size=(B, T)), 3)
        for level in ("token", "sequence"):
            for mode in ("truncate", "mask"):
                (loss, w), _ = call("rollout-correction", fw, [new, old, roll, adv, mask], level=level, mode=mode)
                rl, rw = corrected_policy_loss(t(new), t(old), t(roll), t(adv), torch.tensor(mask), level, mode)
                close(loss, rl.item(), 1e-10)
                close(w, rw, 1e-10)
        (loss, s), _ = call("gspo-loss", fw, [new, old, adv, mask], clip_low=0.2, clip_high=0.28)
        rl, rs = gspo_loss(t(new), t(old), t(adv), torch.tensor(mask), 0.2, 0.28)
        close(loss, rl.item(), 1e-10)
        close(s, rs, 1e-10)
        scores = rng.integers(0, 3, B).astype(float)
        for est in ("dr_grpo", "reinforce_pp", "reinforce_pp_baseline"):
            got, _ = call("critic-free-advantages", fw, [scores, new, old, mask], 2, est, 0.2)
            close(got, critic_free_advantages(t(scores), t(new), t(old), torch.tensor(mask), 2, est, 0.2), 1e-10)


@pytest.mark.parametrize("drill_id", list(DRILLS))
def test_each_corpus_names_every_mistake_and_holds_right_answers_in_other_idioms(drill_id):
    folder = CORPUS / drill_id
    files = sorted(folder.glob("*.py"))
    expects = []
    for f in files:
        head = [line for line in f.read_text().splitlines()[:12] if line.startswith("# expect:")]
        assert head, f"{f.name} has no '# expect:' header"
        expects.append(head[0].split(":", 1)[1].split())
    right = [e for e in expects if e == ["right"]]
    assert len(right) >= 3, "right answers in several idioms"
    named = {m for e in expects for m in e if m != "right"}
    catalogue = {m.id for m in get_drill(drill_id).mistakes}
    assert catalogue <= named, f"no corpus answer expects {sorted(catalogue - named)}"
