"""Every concrete claim a fix-the-bug prompt makes holds: a prompt states right values only ("with K = 2
and rewards [1, 3] the advantages are [-2, 2]", "k1 = 0.5 and k3 = 0.10653"), the model answer gives them
and the starter (the planted mistake) does not. The tests also pin how each planted mistake behaves on
the inputs that tell it apart (right on full-length rows, wrong once a row is padded), which its hints
and the given-code report rely on."""
from __future__ import annotations

import math

import numpy as np
import pytest
import torch

from checker.trusted import load_function
from drills import get_drill


def starter(drill_id: str, fw: str):
    d = get_drill(drill_id)
    return load_function(d.starter(fw), d.function, f"<{drill_id} starter>")


def answer(drill_id: str, fw: str):
    d = get_drill(drill_id)
    return load_function(d.solution(fw), d.function, f"<{drill_id} solution>")


def arr(fw: str, x, dtype=None):
    if fw == "torch":
        return torch.tensor(x, dtype=dtype or torch.float64)
    return np.array(x, dtype=dtype or np.float64)


def mask(fw: str, x):
    return torch.tensor(x, dtype=torch.bool) if fw == "torch" else np.array(x, dtype=bool)


def as_np(x):
    return x.detach().numpy() if isinstance(x, torch.Tensor) else np.asarray(x)


def frameworks(drill_id: str):
    return get_drill(drill_id).frameworks


@pytest.mark.parametrize("fw", frameworks("fix-logprob-shift"))
def test_logprob_shift_returns_real_log_probs_of_the_wrong_tokens(fw):
    logits = arr(fw, [[[1.0, 0.0, 0.0], [0.0, 2.0, 0.0], [0.0, 0.0, 0.0], [3.0, 0.0, 0.0]]])
    ids = torch.tensor([[2, 0, 1, 0]]) if fw == "torch" else np.array([[2, 0, 1, 0]])
    m = mask(fw, [[False, True, True, False]])
    bad = as_np(starter("fix-logprob-shift", fw)(logits, ids, m)[0])
    good = as_np(answer("fix-logprob-shift", fw)(logits, ids, m)[0])
    assert np.isfinite(bad).all() and (bad <= 0).all() and not np.allclose(bad, good)


@pytest.mark.parametrize("fw", frameworks("fix-kl-direction"))
def test_kl_direction_example(fw):
    args = (arr(fw, [[-1.0]]), arr(fw, [[-1.5]]), mask(fw, [[True]]))
    bad, good = starter("fix-kl-direction", fw), answer("fix-kl-direction", fw)
    for estimator, right in (("k1", 0.5), ("k3", math.exp(-0.5) - 0.5)):
        assert float(as_np(good(*args, estimator=estimator)[1])) == pytest.approx(right)
        assert float(as_np(bad(*args, estimator=estimator)[1])) != pytest.approx(right)
    assert round(math.exp(-0.5) - 0.5, 5) == 0.10653


@pytest.mark.parametrize("fw", frameworks("fix-reward-last-token"))
def test_reward_last_token_is_right_on_full_length_rows_only(fw):
    lp, ref, scores = arr(fw, [[-1.0, -0.5], [-0.3, -1.2]]), arr(fw, [[-1.5, -0.5], [-0.8, -1.0]]), arr(fw, [1.0, -0.5])
    bad, good = starter("fix-reward-last-token", fw), answer("fix-reward-last-token", fw)
    full = mask(fw, [[True, True], [True, True]])
    np.testing.assert_allclose(as_np(bad(lp, ref, scores, full)), as_np(good(lp, ref, scores, full)))
    padded = mask(fw, [[True, True], [True, False]])
    assert not np.allclose(as_np(bad(lp, ref, scores, padded)), as_np(good(lp, ref, scores, padded)))


@pytest.mark.parametrize("fw", frameworks("fix-token-gae-bootstrap"))
def test_token_gae_bootstrap_is_right_when_padded_values_are_zero(fw):
    rewards, m = arr(fw, [[0.0, 1.0, 0.0]]), mask(fw, [[True, True, False]])
    bad, good = starter("fix-token-gae-bootstrap", fw), answer("fix-token-gae-bootstrap", fw)
    zero_pad = arr(fw, [[0.5, 0.2, 0.0]])
    np.testing.assert_allclose(as_np(bad(rewards, zero_pad, m)[0]), as_np(good(rewards, zero_pad, m)[0]))
    value_pad = arr(fw, [[0.5, 0.2, 3.0]])
    assert not np.allclose(as_np(bad(rewards, value_pad, m)[0]), as_np(good(rewards, value_pad, m)[0]))


@pytest.mark.parametrize("fw", frameworks("fix-whiten-eps"))
def test_whiten_eps_is_right_on_ordinary_batches_and_nan_on_constant_ones(fw):
    bad, good = starter("fix-whiten-eps", fw), answer("fix-whiten-eps", fw)
    m = mask(fw, [[True, True, True]])
    ordinary = arr(fw, [[1.0, 2.0, 4.0]])
    np.testing.assert_allclose(as_np(bad(ordinary, m)), as_np(good(ordinary, m)), rtol=1e-6)
    with np.errstate(invalid="ignore", divide="ignore"):
        constant = as_np(bad(arr(fw, [[0.5, 0.5, 0.5]]), m))
    assert np.isnan(constant).any() and (as_np(good(arr(fw, [[0.5, 0.5, 0.5]]), m)) == 0).all()


@pytest.mark.parametrize("fw", frameworks("fix-advantage-normalisation"))
def test_advantage_normalisation_is_right_when_no_row_is_padded(fw):
    bad, good = starter("fix-advantage-normalisation", fw), answer("fix-advantage-normalisation", fw)
    adv = arr(fw, [[1.0, 2.0, 3.0], [4.0, 6.0, -1.0]])
    full = mask(fw, [[True] * 3, [True] * 3])
    np.testing.assert_allclose(as_np(bad(adv, full)), as_np(good(adv, full)), rtol=1e-9)
    padded = mask(fw, [[True] * 3, [True, False, False]])
    assert not np.allclose(as_np(bad(adv, padded)), as_np(good(adv, padded)))


def test_value_detach_gives_old_values_a_gradient():
    bad, good = starter("fix-value-detach", "torch"), answer("fix-value-detach", "torch")
    for fn, leaks in ((bad, True), (good, False)):
        values = torch.tensor([[1.0, 2.0]], dtype=torch.float64, requires_grad=True)
        old = torch.tensor([[0.5, 2.5]], dtype=torch.float64, requires_grad=True)
        loss = fn(values, old, torch.tensor([[1.5, 1.0]], dtype=torch.float64))
        loss.backward()
        assert math.isclose(loss.item(), good(values.detach(), old.detach(), torch.tensor([[1.5, 1.0]],
                                                                                        dtype=torch.float64)).item())
        assert (old.grad is not None and bool(old.grad.abs().sum() > 0)) == leaks


@pytest.mark.parametrize("fw", frameworks("fix-grpo-reshape"))
def test_grpo_reshape_example(fw):
    scores, m = arr(fw, [1.0, 2.0, 3.0, 5.0]), mask(fw, [[True]] * 4)
    good = as_np(answer("fix-grpo-reshape", fw)(scores, m, 2, norm_by_std=False))[:, 0]
    bad = as_np(starter("fix-grpo-reshape", fw)(scores, m, 2, norm_by_std=False))[:, 0]
    assert good.tolist() == [-0.5, 0.5, -1.0, 1.0] and bad.tolist() != good.tolist()


@pytest.mark.parametrize("fw", frameworks("fix-agg-seq-mean-token-sum"))
def test_agg_example(fw):
    loss, m = arr(fw, [[1.0, 1.0, 1.0, 1.0], [3.0, 0.0, 0.0, 0.0]]), mask(fw, [[True] * 4, [True, False, False, False]])
    modes = ("token-mean", "seq-mean-token-mean", "seq-mean-token-sum", "seq-mean-token-sum-norm")
    good = [float(answer("fix-agg-seq-mean-token-sum", fw)(loss, m, mode)) for mode in modes]
    bad = [float(starter("fix-agg-seq-mean-token-sum", fw)(loss, m, mode)) for mode in modes]
    assert good == pytest.approx([1.4, 2.0, 3.5, 0.875]) and bad[2] != pytest.approx(3.5)


def test_dual_clip_side_example():
    args = (torch.log(torch.tensor([[1.5, 5.0]], dtype=torch.float64)), torch.zeros(1, 2, dtype=torch.float64),
            torch.tensor([[1.0, -1.0]], dtype=torch.float64), torch.ones(1, 2, dtype=torch.bool))
    good, bad = answer("fix-dual-clip-side", "torch"), starter("fix-dual-clip-side", "torch")
    assert good(*args)[0].item() == pytest.approx(1.9) and good(*args, dual_clip=3.0)[0].item() == pytest.approx(0.9)
    assert bad(*args, dual_clip=3.0)[0].item() != pytest.approx(0.9)


@pytest.mark.parametrize("fw", frameworks("fix-ev-denominator"))
def test_ev_denominator_example(fw):
    values, returns = arr(fw, [[0.5, 0.5, 0.5, 0.5]]), arr(fw, [[1.0, 0.0, 3.0, 2.0]])
    assert answer("fix-ev-denominator", fw)(values, returns) == 0.0
    assert starter("fix-ev-denominator", fw)(values, returns) != 0.0


@pytest.mark.parametrize("fw", frameworks("fix-bt-log-sigmoid"))
def test_bt_log_sigmoid_example(fw):
    chosen, rejected = arr(fw, [1.0, 0.0]), arr(fw, [0.0, 800.0])
    with np.errstate(over="ignore", divide="ignore"):
        bad = float(starter("fix-bt-log-sigmoid", fw)(chosen, rejected))
    good = float(answer("fix-bt-log-sigmoid", fw)(chosen, rejected))
    assert math.isinf(bad) and good == pytest.approx((math.log1p(math.exp(-1.0)) + 800.0) / 2)
    assert round(good, 5) == 400.15663
    small = (arr(fw, [2.0, 0.5]), arr(fw, [1.0, 1.5]))
    same = float(answer("fix-bt-log-sigmoid", fw)(*small))
    assert float(starter("fix-bt-log-sigmoid", fw)(*small)) == pytest.approx(same)


def test_dpo_reference_sign_is_not_log_2_when_the_policy_is_the_reference():
    logps = {"policy_chosen_logps": [[-1.0, -2.0]], "policy_rejected_logps": [[-1.5, -0.5]],
             "ref_chosen_logps": [[-1.0, -2.0]], "ref_rejected_logps": [[-1.5, -0.5]]}
    t = {k: torch.tensor(v, dtype=torch.float64) for k, v in logps.items()}
    m = torch.ones(1, 2, dtype=torch.bool)
    good_loss, _ = answer("fix-dpo-reference-sign", "torch")(**t, chosen_mask=m, rejected_mask=m)
    bad_loss, _ = starter("fix-dpo-reference-sign", "torch")(**t, chosen_mask=m, rejected_mask=m)
    assert good_loss.item() == pytest.approx(math.log(2)) and bad_loss.item() != pytest.approx(math.log(2))
    for beta in (0.1, 0.5, 2.0):
        loss, _ = answer("fix-dpo-reference-sign", "torch")(**t, chosen_mask=m, rejected_mask=m, beta=beta)
        assert loss.item() == pytest.approx(math.log(2))


@pytest.mark.parametrize("fw", frameworks("fix-rloo-baseline"))
def test_rloo_baseline_example(fw):
    rewards = arr(fw, [[1.0, 3.0], [0.0, 2.0]])
    bad, good = as_np(starter("fix-rloo-baseline", fw)(rewards)), as_np(answer("fix-rloo-baseline", fw)(rewards))
    assert bad[0].tolist() == [-1.0, 1.0] and good[0].tolist() == [-2.0, 2.0]
    assert np.allclose(bad.sum(-1), 0.0)


@pytest.mark.parametrize("fw", frameworks("fix-is-probability-space"))
def test_is_probability_space_example(fw):
    rng = np.random.default_rng(0)
    old = rng.uniform(-2.5, -1.5, (2, 400))
    logp = old + rng.uniform(-0.01, 0.01, (2, 400))
    m = np.ones((2, 400), dtype=bool)
    bad, good = starter("fix-is-probability-space", fw), answer("fix-is-probability-space", fw)
    with np.errstate(all="ignore"):
        long_bad = as_np(bad(arr(fw, logp), arr(fw, old), mask(fw, m), arr(fw, [1.0, 0.0]))[0])
    assert np.isnan(long_bad).all()
    assert np.isfinite(as_np(good(arr(fw, logp), arr(fw, old), mask(fw, m), arr(fw, [1.0, 0.0]))[0])).all()
    short = (arr(fw, logp[:, :5]), arr(fw, old[:, :5]), mask(fw, m[:, :5]), arr(fw, [1.0, 0.0]))
    np.testing.assert_allclose(as_np(bad(*short)[0]), as_np(good(*short)[0]), rtol=1e-9)
    old = np.full((2, 400), -2.0)
    shown = (arr(fw, old + np.array([[0.001], [-0.001]])), arr(fw, old), mask(fw, m), arr(fw, [1.0, 0.0]))
    log_w, ess = as_np(good(*shown)[0]), float(as_np(good(*shown)[1]))
    np.testing.assert_allclose(log_w, [0.4, -0.4], atol=1e-9)
    assert round(ess, 5) == 1.74770
    with np.errstate(all="ignore"):
        assert not np.allclose(as_np(bad(*shown)[0]), [0.4, -0.4], atol=1e-6)


def test_klpen_per_minibatch_is_right_near_the_target_and_wrong_on_a_high_then_low_iteration():
    bad, good = starter("fix-klpen-per-minibatch", "torch"), answer("fix-klpen-per-minibatch", "torch")
    base = {"new_logp": [[-0.9, -1.2], [-0.5, -2.0]], "old_logp": [[-1.0, -1.0], [-0.5, -1.8]],
            "advantages": [[1.0, -0.5], [2.0, 1.0]]}

    def run(fn, kl):
        t = {k: torch.tensor(v, dtype=torch.float64) for k, v in {**base, "kl": kl}.items()}
        losses, beta = fn(**t)
        return losses.tolist(), float(beta)

    near = [[0.01, 0.012], [0.009, 0.011]]
    assert run(bad, near) == run(good, near)
    swing = [[0.03, 0.03], [0.005, 0.005]]
    (bad_losses, bad_beta), (good_losses, good_beta) = run(bad, swing), run(good, swing)
    assert bad_losses[0] == pytest.approx(good_losses[0]) and bad_losses[1] != pytest.approx(good_losses[1])
    assert good_beta == 2.0 and bad_beta != good_beta
