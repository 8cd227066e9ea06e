"""The PPO update-loop drill (`ppo-update`) and its fix-the-bug drill: metadata and bilingual prompts, the
prompt's worked example recomputed from the reference run and by both model answers, the problem objects
(the NumPy gradient in closed form equals autograd's, and they hold no result), the examples built as
the spec says (clipping active where it should be, the early stop placed between two epochs), the
catalogue, the fix-the-bug drill, the deck, and the corpus's coverage."""
from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
import torch

from tests.warm_checker import check
from checker.reference.update_loop import NUMPY_PROBLEM, TORCH_PROBLEM, reference_update, whiten
from checker.specs.ppo_update import NO_CLIP, STOP_TARGET, WORKED_TARGET, _edge_cases, _first_grad_norm, worked_arrays
from checker.trusted import load_function
from drills import get_drill, load_drills
from drills.schema import read_yaml

ROOT = Path(__file__).resolve().parents[1]
CORPUS = Path(__file__).parent / "diagnosis" / "ppo-update"
REQUIRED_MISTAKES = {"old-logp-in-loop", "loop-no-early-stop", "loop-stop-per-minibatch", "loop-stats-not-reset",
                     "loop-no-grad-clip", "loop-whiten-per-minibatch", "loop-old-values-in-loop",
                     "loop-order-ignored", "loop-grad-not-zeroed", "loop-stop-last-minibatch-kl", "loop-kl-k1",
                     "loop-clipfrac-active-branch", "loop-grad-clip-per-tensor"}
POINTS_AT_A_DOCUMENT = re.compile(r"seed|the chapter|the lesson|the tutorial|crib[- ]sheet|本章|章节|课程|教程",
                                  re.IGNORECASE)


def _solution(fw: str):
    return load_function(get_drill("ppo-update").solution(fw), "ppo_update", f"<ppo_update {fw}>")


def _run(fn, fw: str, arrays: dict, **hyper):
    if fw == "torch":
        args = {k: torch.from_numpy(np.array(v)) for k, v in arrays.items()}
        args["theta"].requires_grad_(True)
        args["phi"].requires_grad_(True)
        theta, phi, history = fn(TORCH_PROBLEM, **args, **hyper)
        return theta.detach().numpy(), phi.detach().numpy(), history
    return fn(NUMPY_PROBLEM, **{k: np.array(v) for k, v in arrays.items()}, **hyper)


def test_the_drills_sit_in_the_track():
    core = [d.id for d in load_drills() if d.kind == "core"]
    pitfalls = [d.id for d in load_drills() if d.kind == "pitfall"]
    assert core.index("ppo-update") == core.index("kl-penalty") + 1
    assert "fix-old-logp-in-loop" in pitfalls


def test_metadata_and_prompts():
    d = get_drill("ppo-update")
    assert d.kind == "core" and d.frameworks == ("numpy", "torch") and d.target_minutes == 15
    assert len(d.hints) == 3 and all(d.hints)
    for text in (d.prompt, d.prompt_zh):
        assert "Schulman et al. 2017" in text and "Algorithm 1" in text and "CleanRL" in text
    assert not re.search(r"[\u4e00-\u9fff]", d.prompt)
    assert d.prompt_zh.startswith("# ") and re.search(r"[\u4e00-\u9fff]", d.prompt_zh.splitlines()[0])
    assert d.function in d.prompt_zh
    assert set(re.findall(r"-?\d+\.\d+", d.prompt)) == set(re.findall(r"-?\d+\.\d+", d.prompt_zh))
    for text in (d.prompt, d.prompt_zh, d.title, *d.hints):
        assert not POINTS_AT_A_DOCUMENT.search(text)
    for section in ("## Shapes and types", "## Conventions", "## Example"):
        assert section in d.prompt, section
    # every convention the checker holds is stated
    for words in ("unbiased", "k3", "|ratio - 1| > clip_eps", "global", "1e-6", "after each epoch", "target_kl=None",
                  "requires_grad=True", "zero the gradients"):
        assert words in d.prompt, words


def _numbers(text: str) -> list[float]:
    return [float(x) for x in re.findall(r"-?\d+\.\d+", text)]


def test_worked_example_is_recomputed():
    d = get_drill("ppo-update")
    arrays = worked_arrays()
    adv = whiten(arrays["advantages"])
    theta, phi, history = reference_update(**arrays)
    stopped = reference_update(**arrays, target_kl=WORKED_TARGET)
    # the first minibatch's gradient and its clipping scale
    old_logp = NUMPY_PROBLEM.logp(arrays["theta"], arrays["obs"], arrays["actions"])
    idx = arrays["minibatches"][0, 0]
    _, gt, gp = NUMPY_PROBLEM.loss_and_grad(arrays["theta"], arrays["phi"], arrays["obs"][idx], arrays["actions"][idx],
                                            old_logp[idx], np.zeros(2), adv[idx], arrays["returns"][idx], 0.2)
    norm = float(np.sqrt((gt ** 2).sum() + (gp ** 2).sum()))
    written = [float(np.std(arrays["advantages"], ddof=1)), *adv, norm, 0.5 / (norm + 1e-6),
               history[0]["approx_kl"], history[0]["clip_frac"], history[1]["approx_kl"], *theta.ravel(), *phi,
               *stopped[0].ravel(), *stopped[1]]
    for text in (d.prompt, d.prompt_zh):
        nums = _numbers(text)
        for value in written:
            assert any(abs(n - value) < 5e-6 for n in nums), value
    assert len(stopped[2]) == 1 and history[0]["approx_kl"] > WORKED_TARGET and len(history) == 2
    # the second minibatch's ratios and KL as written
    t1 = arrays["theta"] - 0.5 * min(1.0, 0.5 / (norm + 1e-6)) * gt  # theta after the first step
    idx2 = arrays["minibatches"][0, 1]
    lr = NUMPY_PROBLEM.logp(t1, arrays["obs"][idx2], arrays["actions"][idx2]) - old_logp[idx2]
    assert f"[{np.exp(lr)[0]:.6f}, 1.0]" in d.prompt and f"{np.mean(np.expm1(lr) - lr):.6f}" in d.prompt
    for fw in ("numpy", "torch"):
        got = _run(_solution(fw), fw, arrays)
        np.testing.assert_allclose(got[0], theta, atol=1e-9)
        np.testing.assert_allclose(got[1], phi, atol=1e-9)
        assert [h["approx_kl"] for h in got[2]] == pytest.approx([h["approx_kl"] for h in history], abs=1e-12)
        got = _run(_solution(fw), fw, arrays, target_kl=WORKED_TARGET)
        np.testing.assert_allclose(got[0], stopped[0], atol=1e-9)
        assert len(got[2]) == 1


def test_numpy_gradient_equals_autograd():
    rng = np.random.default_rng(0)
    for _ in range(30):
        D, K, n = 3, 3, 5
        th, ph = rng.normal(size=(D, K)), rng.normal(size=D)
        obs, act = rng.normal(size=(n, D)), rng.integers(0, K, n)
        old = NUMPY_PROBLEM.logp(th + 0.3 * rng.normal(size=(D, K)), obs, act)
        old_v = NUMPY_PROBLEM.value(ph + 0.3 * rng.normal(size=D), obs)
        adv, ret = rng.normal(size=n), rng.normal(size=n)
        loss, gt, gp = NUMPY_PROBLEM.loss_and_grad(th, ph, obs, act, old, old_v, adv, ret, 0.2)
        tt, tp = torch.tensor(th, requires_grad=True), torch.tensor(ph, requires_grad=True)
        data = [torch.tensor(x) for x in (obs, act, old, old_v, adv, ret)]
        tl = TORCH_PROBLEM.loss_autograd(tt, tp, *data, 0.2)
        tl.backward()
        assert float(tl.detach()) == pytest.approx(loss, abs=1e-12)
        np.testing.assert_allclose(tt.grad.numpy(), gt, atol=1e-12)
        np.testing.assert_allclose(tp.grad.numpy(), gp, atol=1e-12)
        # the loss the answers get: the same value, and backward gives the same gradients, scaled by upstream
        t2, p2 = torch.tensor(th, requires_grad=True), torch.tensor(ph, requires_grad=True)
        closed = TORCH_PROBLEM.loss(t2, p2, *data, 0.2)
        (3.0 * closed).backward()
        assert float(closed.detach()) == pytest.approx(loss, abs=1e-12) and closed.dim() == 0
        np.testing.assert_allclose(t2.grad.numpy(), 3.0 * gt, atol=1e-12)
        np.testing.assert_allclose(p2.grad.numpy(), 3.0 * gp, atol=1e-12)


def test_problem_objects_hold_no_state():
    for p in (NUMPY_PROBLEM, TORCH_PROBLEM):
        assert vars(p) == {}
    with torch.no_grad():  # under no_grad the loss is a plain number, as a torch expression would be
        z = torch.zeros(2, 2, dtype=torch.float64, requires_grad=True)
        loss = TORCH_PROBLEM.loss(z, torch.zeros(2, dtype=torch.float64, requires_grad=True), torch.ones(2, 2,
                                  dtype=torch.float64), torch.tensor([0, 1]), torch.zeros(2, dtype=torch.float64),
                                  torch.zeros(2, dtype=torch.float64), torch.ones(2, dtype=torch.float64),
                                  torch.ones(2, dtype=torch.float64), 0.2)
        assert not loss.requires_grad


def test_examples_are_built_as_the_spec_says():
    examples = _edge_cases()
    clipped = [ex for ex in examples if ex.label == "edge: one step, the gradient clipped"]
    assert clipped and all(_first_grad_norm(ex) > ex.hyper["max_grad_norm"] for ex in clipped)
    stats = [ex for ex in examples if ex.label == "edge: three epochs of the whole batch"]
    assert stats and all(abs(ex.arrays["advantages"].std(ddof=1) - 1) < 1e-12 for ex in stats)
    assert all(ex.hyper.get("max_grad_norm") == NO_CLIP for ex in stats)
    stopped = next(ex for ex in examples if ex.relation == ("early-stop", "stopped"))
    kls = [h["approx_kl"] for h in reference_update(**stopped.arrays)[2]]
    assert kls[0] < STOP_TARGET < kls[1]  # the reference stops after epoch 2
    # ... although the second minibatch of epoch 1 alone exceeds it (a per-minibatch check stops earlier)
    a = stopped.arrays
    one = reference_update(**{**a, "minibatches": a["minibatches"][:1, :1]})
    old_logp = NUMPY_PROBLEM.logp(a["theta"], a["obs"], a["actions"])
    idx = a["minibatches"][0, 1]
    lr = NUMPY_PROBLEM.logp(one[0], a["obs"][idx], a["actions"][idx]) - old_logp[idx]
    assert np.mean(np.expm1(lr) - lr) > STOP_TARGET


def test_required_mistakes_are_catalogued():
    d = get_drill("ppo-update")
    assert REQUIRED_MISTAKES <= {m.id for m in d.mistakes}
    for m in d.mistakes:
        fails = read_yaml(m.folder / "mistake.yaml", ROOT)["fails"]
        assert fails, m.id
        assert set(m.frameworks) == ({"torch"} if m.id == "loop-grad-not-zeroed" else {"numpy", "torch"}), m.id


@pytest.mark.parametrize("fw", ["numpy", "torch"])
def test_fix_the_bug_drill(fw):
    d = get_drill("fix-old-logp-in-loop")
    assert (d.kind, d.base, d.mistake_id) == ("pitfall", "ppo-update", "old-logp-in-loop")
    assert d.prompt.startswith("This code has one bug.") and d.prompt_zh.startswith("这段代码有一个 bug。")
    assert len(d.hints) == 3 and 2 <= d.target_minutes <= 4
    report = check(d.starter(fw), "fix-old-logp-in-loop", fw)
    assert not report.passed and "old-logp-in-loop" in report.mistake_ids
    fixed = d.starter(fw).replace("            old_logp = problem.logp(theta, obs, actions).detach()\n", "") \
        .replace("            old_logp = problem.logp(theta, obs, actions)\n", "")
    assert check(fixed, "fix-old-logp-in-loop", fw).passed


def test_the_deck_has_two_cards_per_concept_and_the_drills_link_to_it():
    deck = read_yaml(ROOT / "cards" / "decks" / "update-loop.yaml", ROOT)
    ids = {c["id"] for c in deck["cards"]}
    groups = {"freeze": {"loop-freeze-old-logp", "loop-freeze-old-logp-symptom", "loop-freeze-old-values"},
              "early stop": {"loop-early-stop-kl", "loop-early-stop-when"},
              "clipping": {"loop-grad-clip-global-norm", "loop-grad-clip-per-tensor"},
              "statistics": {"loop-per-epoch-stats", "loop-measure-before-update"},
              "structure": {"loop-minibatch-order", "loop-zero-grad", "loop-whiten-scope"}}
    for name, group in groups.items():
        assert len(group & ids) >= 2, name
    linked = set(get_drill("ppo-update").cards) | {m.card for m in get_drill("ppo-update").mistakes}
    known = ids | {"loop-epochs-minibatches"}
    assert linked <= known, linked - known


def test_corpus_covers_every_mistake_three_times():
    counts: dict[str, int] = {}
    rights = 0
    for path in sorted(CORPUS.glob("*.py")):
        expect = re.search(r"^# expect: (.*)$", path.read_text(), re.M).group(1).split()
        rights += expect == ["right"]
        for mid in expect:
            counts[mid] = counts.get(mid, 0) + 1
    assert rights >= 8
    for m in get_drill("ppo-update").mistakes:
        assert counts.get(m.id, 0) >= 3, (m.id, counts.get(m.id, 0))


@pytest.mark.parametrize("fw", ["numpy", "torch"])
def test_the_planted_bug_reads_zero_kl_and_never_stops(fw):
    """The fix-the-bug drill's planted code (its prompt names no symptom) moves the parameters while every
    epoch reports approx KL 0 and clip fraction 0 and target_kl never stops the loop; the model answer
    stops where the prompt of the core drill says."""
    d = get_drill("fix-old-logp-in-loop")
    bad = load_function(d.starter(fw), "ppo_update", "<fix starter>")
    arrays = worked_arrays()
    theta, _, history = _run(bad, fw, arrays, target_kl=1e-9)
    assert len(history) == len(arrays["minibatches"])
    assert all(h["approx_kl"] == 0.0 and h["clip_frac"] == 0.0 for h in history)
    assert np.abs(theta - arrays["theta"]).max() > 0.01
    assert len(_run(_solution(fw), fw, arrays, target_kl=1e-9)[2]) == 1


@pytest.mark.parametrize("mistake, ran", [("loop-no-early-stop", (1, 2)), ("loop-stats-not-reset", (2, 2))])
def test_the_counterexample_shows_each_history_as_it_ran(mistake, ran):
    """The statistics are compared one slot per planned epoch (NaN where the reference stopped); the
    table shows the reference's history and the answer's own, an entry per epoch each of them ran."""
    m = next(x for x in get_drill("ppo-update").mistakes if x.id == mistake)
    report = check(m.source("numpy"), "ppo-update", "numpy")
    cx = report.counterexample
    assert cx is not None and (cx.expected["epochs"], cx.got["epochs"]) == ran
    for side, epochs in ((cx.expected, ran[0]), (cx.got, ran[1])):
        for key in ("approx_kl", "clip_frac"):
            values = np.asarray(side[key], dtype=float)
            assert values.shape == (epochs,) and np.isfinite(values).all(), (key, side[key])
    assert "nan" not in report.render()
