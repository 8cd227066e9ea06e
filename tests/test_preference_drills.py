"""The preference, RLOO, importance-weight and KL-penalty drills: metadata and bilingual prompts, the
prompts' worked examples recomputed by the model answers and the reference, the fix-the-bug drills, and
the diagnosis corpus's coverage of each drill. Every mistake's verdict (rejected, named, failing only its
declared checks) is tested for all core drills in test_checker_catalogue.py, and every corpus answer's in
test_diagnosis_corpus.py."""
from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pytest
import torch

from checker.trusted import load_function
from drills import get_drill, load_drills
from drills.schema import read_yaml

ROOT = Path(__file__).resolve().parents[1]
CORPUS = Path(__file__).parent / "diagnosis"

NEW_DRILLS = {  # id -> (frameworks, target minutes, the primary source the prompt cites)
    "bt-loss": (("numpy", "torch"), 5, "Ouyang et al. 2022"),
    "dpo-loss": (("torch",), 10, "Rafailov et al. 2023"),
    "rloo": (("numpy", "torch"), 5, "Ahmadian et al. 2024"),
    "trajectory-is": (("numpy", "torch"), 10, "Kish 1965"),
    "kl-penalty": (("torch",), 8, "Schulman et al. 2017"),
}
# Where we could not confirm the equation number in the primary source, the prompt names the source and
# the estimator without one.
NO_EQUATION_NUMBER = {"rloo", "trajectory-is"}
FIX_DRILLS = {  # id -> (base drill, planted mistake)
    "fix-bt-log-sigmoid": ("bt-loss", "bt-log-of-sigmoid"),
    "fix-dpo-reference-sign": ("dpo-loss", "dpo-reference-sign"),
    "fix-rloo-baseline": ("rloo", "rloo-baseline-includes-self"),
    "fix-is-probability-space": ("trajectory-is", "is-probability-space"),
    "fix-klpen-per-minibatch": ("kl-penalty", "klpen-per-minibatch"),
}
REQUIRED_MISTAKES = {
    "bt-loss": {"bt-chosen-rejected-swapped", "bt-log-of-sigmoid", "bt-margin-wrong-side", "bt-sum-over-pairs"},
    "dpo-loss": {"dpo-reference-sign", "dpo-beta-outside", "dpo-mean-logps", "dpo-grad-into-reference",
                 "dpo-log-of-sigmoid"},
    "rloo": {"rloo-baseline-includes-self", "rloo-divides-by-k", "rloo-batch-baseline"},
    "trajectory-is": {"is-probability-space", "is-padding-included", "is-ess-over-n", "is-snis-no-denominator"},
    "kl-penalty": {"klpen-update-inverted", "klpen-thresholds-swapped", "klpen-per-minibatch"},
}
POINTS_AT_A_DOCUMENT = re.compile(r"seed|the chapter|the lesson|the tutorial|crib[- ]sheet|本章|章节|课程|教程",
                                  re.IGNORECASE)


def _fn(source: str, drill_id: str):
    return load_function(source, get_drill(drill_id).function, f"<{drill_id}>")


def _solution(drill_id: str, fw: str):
    return _fn(get_drill(drill_id).solution(fw), drill_id)


def test_new_drills_sit_after_the_existing_core_drills():
    ids = [d.id for d in load_drills()]
    core = [d.id for d in load_drills() if d.kind == "core"]
    assert core.index("actor-loss") < min(core.index(d) for d in NEW_DRILLS)
    assert all(ids.index(f) > ids.index(core[-1]) for f in FIX_DRILLS)


@pytest.mark.parametrize("drill_id", list(NEW_DRILLS))
def test_metadata_and_prompts(drill_id):
    frameworks, minutes, source = NEW_DRILLS[drill_id]
    d = get_drill(drill_id)
    assert d.kind == "core" and d.frameworks == frameworks and d.target_minutes == minutes
    assert len(d.hints) == 3 and all(d.hints)
    assert source in d.prompt and source in d.prompt_zh
    if drill_id not in NO_EQUATION_NUMBER:
        assert re.search(r"eq\. \d", d.prompt) and re.search(r"式 \d", d.prompt_zh), "the prompt cites an equation"
    assert not re.search(r"[\u4e00-\u9fff]", d.prompt)
    assert d.prompt_zh.startswith("# ") and re.search(r"[\u4e00-\u9fff]", d.prompt_zh.splitlines()[0])
    assert d.function in d.prompt_zh
    assert set(re.findall(r"-?\d+\.\d+", d.prompt)) == set(re.findall(r"-?\d+\.\d+", d.prompt_zh))
    for text in (d.prompt, d.prompt_zh, d.title, *d.hints):
        assert not POINTS_AT_A_DOCUMENT.search(text)
    for section in ("## Shapes and types", "## Conventions", "## Example"):
        assert section in d.prompt, section


@pytest.mark.parametrize("drill_id", list(NEW_DRILLS))
def test_required_mistakes_are_catalogued_and_declare_their_checks(drill_id):
    d = get_drill(drill_id)
    assert REQUIRED_MISTAKES[drill_id] <= {m.id for m in d.mistakes}
    assert len(d.mistakes) >= 4
    check_ids = {c.id for c in _spec(drill_id).checks()}
    for m in d.mistakes:
        fails = read_yaml(m.folder / "mistake.yaml", ROOT)["fails"]
        assert fails and set(fails) <= check_ids, (m.id, set(fails) - check_ids)
        assert set(m.frameworks) == set(d.frameworks), m.id


def _spec(drill_id):
    from checker.specs import spec_for

    return spec_for(drill_id)


@pytest.mark.parametrize("drill_id", list(FIX_DRILLS))
def test_fix_the_bug_drill(drill_id):
    base, mistake = FIX_DRILLS[drill_id]
    d = get_drill(drill_id)
    assert (d.kind, d.base, d.mistake_id) == ("pitfall", base, mistake)
    assert d.prompt.startswith("This code has one bug.") and d.prompt_zh.startswith("这段代码有一个 bug。")
    assert len(d.hints) == 3 and 2 <= d.target_minutes <= 4
    for fw in d.frameworks:
        assert d.starter(fw) == d.planted_mistake.source(fw)


# ---- worked examples, recomputed ------------------------------------------------------------------

BT_C, BT_R = [2.0, 0.5, -1.0], [1.0, 1.5, -3.0]


def _softplus(x):
    return math.log1p(math.exp(x)) if x < 30 else x


def test_bt_worked_example():
    d = get_drill("bt-loss")
    for margin, written in ((0.0, "0.584484"), (0.5, "0.792301")):
        terms = [_softplus(-(c - r - margin)) for c, r in zip(BT_C, BT_R)]
        by_hand = sum(terms) / 3
        assert f"{by_hand:.6f}" == written
        for text in (d.prompt, d.prompt_zh):
            assert written in text
        if margin == 0.0:
            for t in terms:
                assert f"{t:.6f}" in d.prompt
        np_loss = _solution("bt-loss", "numpy")(np.array(BT_C), np.array(BT_R), margin=margin)
        th_loss = _solution("bt-loss", "torch")(torch.tensor(BT_C), torch.tensor(BT_R), margin=margin)
        assert math.isclose(float(np_loss), by_hand, abs_tol=1e-12)
        assert math.isclose(float(th_loss), by_hand, rel_tol=1e-6)


def test_bt_large_gaps_and_gradient():
    fn = _solution("bt-loss", "torch")
    c = torch.tensor([0.0, 0.0], dtype=torch.float64, requires_grad=True)
    r = torch.tensor([800.0, -800.0], dtype=torch.float64, requires_grad=True)
    loss = fn(c, r)
    loss.backward()
    assert float(loss.detach()) == pytest.approx(400.0)
    assert c.grad.tolist() == pytest.approx([-0.5, 0.0])
    assert float(_solution("bt-loss", "numpy")(np.array([0.0]), np.array([1000.0]))) == pytest.approx(1000.0)


# ---- diagnosis corpus ---------------------------------------------------------------------------

def _corpus_files():
    out = []
    for drill_id in NEW_DRILLS:
        for path in sorted((CORPUS / drill_id).glob("*.py")):
            out.append((drill_id, path))
    return out


def _header(path: Path) -> dict:
    head = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        m = re.match(r"#\s*([a-z-]+):\s*(.*)$", line)
        if not m:
            break
        head[m.group(1)] = m.group(2).strip()
    return head


@pytest.mark.parametrize("drill_id", list(NEW_DRILLS))
def test_corpus_covers_every_mistake_three_times_and_has_right_answers(drill_id):
    counts: dict[str, int] = {}
    rights = 0
    for d, path in _corpus_files():
        if d != drill_id:
            continue
        expect = _header(path)["expect"]
        if expect == "right":
            rights += 1
        for mid in expect.split():
            counts[mid] = counts.get(mid, 0) + 1
        catalogued = {m.id: m for m in get_drill(drill_id).mistakes}
        for mid in expect.split():
            if mid in catalogued:  # written independently: never a copy of a catalogue file
                for fw in catalogued[mid].frameworks:
                    assert path.read_text() != catalogued[mid].source(fw)
    assert rights >= 2
    for m in get_drill(drill_id).mistakes:
        assert counts.get(m.id, 0) >= 3, (m.id, counts.get(m.id, 0))


def test_dpo_worked_example():
    from checker.specs.dpo_loss import WORKED, WORKED_CHOSEN_MASK, WORKED_REJECTED_MASK

    d = get_drill("dpo-loss")
    seq = {k: [sum(x for x, keep in zip(row, mrow) if keep) for row, mrow in
               zip(v, WORKED_CHOSEN_MASK if "chosen" in k else WORKED_REJECTED_MASK)] for k, v in WORKED.items()}
    assert [round(x, 9) for x in seq["policy_chosen_logps"]] == [-3.5, -1.0]
    assert [round(x, 9) for x in seq["ref_chosen_logps"]] == [-3.9, -0.9]
    assert [round(x, 9) for x in seq["policy_rejected_logps"]] == [-3.0, -2.1]
    assert [round(x, 9) for x in seq["ref_rejected_logps"]] == [-2.7, -2.4]
    fn = _solution("dpo-loss", "torch")
    tensors = {k: torch.tensor(v, dtype=torch.float64) for k, v in WORKED.items()}
    masks = {"chosen_mask": torch.tensor(WORKED_CHOSEN_MASK), "rejected_mask": torch.tensor(WORKED_REJECTED_MASK)}
    for beta, written in ((0.1, "0.686053"), (0.5, "0.665761")):
        cr = [beta * (p - r) for p, r in zip(seq["policy_chosen_logps"], seq["ref_chosen_logps"])]
        rr = [beta * (p - r) for p, r in zip(seq["policy_rejected_logps"], seq["ref_rejected_logps"])]
        terms = [_softplus(-(c - r)) for c, r in zip(cr, rr)]
        by_hand = sum(terms) / 2
        assert f"{by_hand:.6f}" == written and written in d.prompt and written in d.prompt_zh
        loss, stats = fn(**tensors, **masks, beta=beta)
        assert math.isclose(float(loss), by_hand, abs_tol=1e-12)
        assert stats["chosen_rewards"].tolist() == pytest.approx(cr) and stats["rejected_rewards"].tolist() == pytest.approx(rr)
        assert stats["reward_accuracy"] == 0.5
        if beta == 0.1:
            assert [f"{x:.2f}" for x in cr] == ["0.04", "-0.01"] and [f"{x:.2f}" for x in rr] == ["-0.03", "0.03"]
            for t in terms:
                assert f"{t:.6f}" in d.prompt


def test_dpo_reference_receives_no_gradient_and_large_gaps_stay_finite():
    fn = _solution("dpo-loss", "torch")
    pc = torch.tensor([[-400.0, -400.0]], dtype=torch.float64, requires_grad=True)
    ref = torch.full((1, 2), -1.0, dtype=torch.float64, requires_grad=True)
    mask = torch.ones(1, 2, dtype=torch.bool)
    loss, _ = fn(pc, ref.detach().clone().requires_grad_(), ref, ref.detach().clone().requires_grad_(), mask, mask,
                 beta=1.0)
    loss.backward()
    assert float(loss.detach()) == pytest.approx(798.0) and ref.grad is None
    assert pc.grad.flatten().tolist() == pytest.approx([-1.0, -1.0])


def test_rloo_worked_example_and_k_two():
    d = get_drill("rloo")
    rows = [[1.0, 0.0, 0.0, 1.0], [0.5, 2.0, 1.0, 0.5]]
    for fw in ("numpy", "torch"):
        fn = _solution("rloo", fw)
        got = fn(np.array(rows) if fw == "numpy" else torch.tensor(rows, dtype=torch.float64))
        for row, adv in zip(rows, np.asarray(got)):
            K = len(row)
            base = [(sum(row) - r) / (K - 1) for r in row]
            want = [r - b for r, b in zip(row, base)]
            assert adv.tolist() == pytest.approx(want)
            written = "[" + ", ".join(f"{x:.1f}" if x == round(x, 1) else f"{x:.6f}" for x in want) + "]"
            for text in (d.prompt, d.prompt_zh):  # the advantages as written (the baselines are the answer key)
                assert written in text, written
        pair = fn(np.array([[1.0, 3.0]]) if fw == "numpy" else torch.tensor([[1.0, 3.0]], dtype=torch.float64))
        assert np.asarray(pair).tolist() == [[-2.0, 2.0]]
    assert "[0.666667, -0.666667, -0.666667, 0.666667]" in d.prompt
    assert "[-0.666667, 1.333333, 0.0, -0.666667]" in d.prompt


def test_trajectory_is_worked_example_and_extremes():
    from checker.specs.trajectory_is import WORKED_LOGP, WORKED_MASK, WORKED_OLD, WORKED_RETURNS

    d = get_drill("trajectory-is")
    log_w = [sum(a - b for a, b, m in zip(r1, r2, rm) if m) for r1, r2, rm in zip(WORKED_LOGP, WORKED_OLD, WORKED_MASK)]
    assert [round(x, 9) for x in log_w] == [-0.3, 0.0, -0.5]
    w = [math.exp(x) for x in log_w]
    ess = sum(w) ** 2 / sum(x * x for x in w)
    is_est = sum(x * g for x, g in zip(w, WORKED_RETURNS)) / 3
    snis = sum(x * g for x, g in zip(w, WORKED_RETURNS)) / sum(w)
    for value in (ess, is_est, snis, sum(w), *w[::2]):
        for text in (d.prompt, d.prompt_zh):
            assert f"{value:.6f}" in text, value
    for fw in ("numpy", "torch"):
        arr = (lambda x, dt=float: np.array(x, dtype=dt)) if fw == "numpy" else \
              (lambda x, dt=torch.float64: torch.tensor(x, dtype=dt))
        out = _solution("trajectory-is", fw)(arr(WORKED_LOGP), arr(WORKED_OLD),
                                             arr(WORKED_MASK, bool if fw == "numpy" else torch.bool), arr(WORKED_RETURNS))
        assert np.asarray(out[0]).tolist() == pytest.approx(log_w)
        assert [float(x) for x in out[1:]] == pytest.approx([ess, is_est, snis], rel=1e-12)
        big = _solution("trajectory-is", fw)(arr([[700.0], [-700.0], [0.0]]), arr([[0.0], [0.0], [0.0]]),
                                             arr([[True], [True], [True]], bool if fw == "numpy" else torch.bool),
                                             arr([1.0, 2.0, 3.0]))
        assert float(big[1]) == pytest.approx(1.0) and float(big[3]) == pytest.approx(1.0)


def test_kl_penalty_worked_example():
    from checker.specs.kl_penalty import WORKED

    d = get_drill("kl-penalty")
    fn = _solution("kl-penalty", "torch")
    t = {k: torch.tensor(v, dtype=torch.float64) for k, v in WORKED.items()}
    by_hand = []
    for m in range(2):
        ratios = [math.exp(a - b) for a, b in zip(WORKED["new_logp"][m], WORKED["old_logp"][m])]
        surrogate = sum(r * a for r, a in zip(ratios, WORKED["advantages"][m])) / 2
        mean_kl = sum(WORKED["kl"][m]) / 2
        by_hand.append(-surrogate + 1.0 * mean_kl)
        for text in (d.prompt, d.prompt_zh):
            assert all(f"{r:.6f}" in text for r in ratios if r != 1.0)
    losses, new_beta = fn(**t)
    assert losses.tolist() == pytest.approx(by_hand, abs=1e-12) and new_beta == 2.0
    for text in (d.prompt, d.prompt_zh):
        assert "[" + ", ".join(f"{x:.6f}" for x in by_hand) + "]" in text
    low = dict(t, kl=torch.tensor([[0.002, 0.004], [0.001, 0.005]], dtype=torch.float64))
    losses, new_beta = fn(**low, beta=2.0)
    assert new_beta == 1.0 and "[" + ", ".join(f"{x:.6f}" for x in losses.tolist()) + "]" in d.prompt
    band = dict(t, kl=torch.tensor([[0.01, 0.012], [0.008, 0.01]], dtype=torch.float64))
    assert fn(**band)[1] == 1.0
