"""Properties of the reference KL estimators, masked statistics, importance weights and GRPO."""
from __future__ import annotations

import math

import numpy as np
import pytest
import torch
from hypothesis import given, settings, strategies as st

from checker.reference import (
    effective_sample_size, explained_variance, grpo_advantages, kl_k1, kl_k2, kl_k3, kl_per_token,
    kl_shaped_rewards, masked_mean, masked_whiten, trajectory_log_weight,
)
from tests.strategies import arrays, policy_batch


@given(policy_batch(log_ratio_scale=5.0))
@settings(max_examples=50)
def test_k3_is_non_negative_and_zero_iff_log_probs_agree(batch):
    logp, ref, _, mask = batch
    per = kl_per_token(logp, ref, "k3")
    assert bool((per >= 0).all())
    assert bool((per[logp == ref] == 0).all())
    assert bool((per[(logp - ref).abs() > 1e-6] > 0).all())  # below that, x - 1 - log x underflows to 0
    assert kl_k3(logp, logp, mask).item() == 0.0


def test_notes_probe_3_6_kl_estimators_and_direction():
    lp, ref = torch.tensor([-1.0]), torch.tensor([-1.5])
    assert kl_k1(lp, ref).item() == pytest.approx(0.5)
    assert kl_k2(lp, ref).item() == pytest.approx(0.125)
    assert kl_k3(lp, ref).item() == pytest.approx(0.10653, abs=1e-5)
    assert kl_k3(ref, lp).item() == pytest.approx(0.14872, abs=1e-5)  # swapped arguments differ


@given(policy_batch(), st.sampled_from(["k1", "k2", "k3"]))
@settings(max_examples=30)
def test_kl_means_ignore_padding(batch, est):
    logp, ref, _, mask = batch
    fn = {"k1": kl_k1, "k2": kl_k2, "k3": kl_k3}[est]
    expected = kl_per_token(logp, ref, est)[mask].mean()
    junk = logp.clone()
    junk[~mask] = float("nan")
    torch.testing.assert_close(fn(junk, ref, mask), expected)


def test_kl_shaped_reward_puts_the_task_reward_on_the_last_valid_token():
    logp = torch.tensor([[-1.0, -2.0, -0.5, 0.0], [-1.0, -1.0, -1.0, -1.0]])
    ref = torch.tensor([[-1.5, -2.0, -0.5, 0.0], [-1.0, -0.5, -1.0, -1.0]])
    mask = torch.tensor([[1, 1, 1, 0], [1, 1, 1, 1]], dtype=torch.bool)
    r = kl_shaped_rewards(logp, ref, torch.tensor([2.0, -1.0]), mask, beta=0.1)
    expected = torch.tensor([[-0.05, 0.0, 2.0, 0.0], [0.0, 0.05, 0.0, -1.0]], dtype=torch.float64)
    torch.testing.assert_close(r, expected)


@given(policy_batch())
@settings(max_examples=50)
def test_whitened_advantages_have_mean_zero_and_std_one_over_valid_tokens(batch):
    _, _, adv, mask = batch
    if int(mask.sum()) < 2 or float(adv[mask].std()) < 1e-3:
        return
    w = masked_whiten(adv, mask)
    valid = w[mask]
    assert abs(valid.mean().item()) < 1e-9
    assert valid.std(unbiased=False).item() == pytest.approx(1.0, abs=1e-6)
    assert bool((w[~mask] == 0).all())
    junk = adv.clone()
    junk[~mask] = float("nan")
    torch.testing.assert_close(masked_whiten(junk, mask), w)


def test_whiten_of_constant_advantages_is_zero_not_nan():
    out = masked_whiten(torch.full((4,), 3.0))
    assert bool((out == 0).all())


def test_masked_mean_of_nothing_is_zero():
    assert masked_mean(torch.tensor([5.0]), torch.tensor([False])).item() == 0.0


def test_explained_variance():
    R = torch.tensor([1.0, 2.0, 3.0, 4.0])
    assert explained_variance(R, R).item() == pytest.approx(1.0)
    assert explained_variance(torch.full((4,), 2.5), R).item() == pytest.approx(0.0)
    assert explained_variance(-R, R).item() < 0
    assert math.isnan(explained_variance(R, torch.ones(4)).item())


@given(policy_batch())
@settings(max_examples=30)
def test_trajectory_log_weight_sums_masked_log_ratios(batch):
    logp, old, _, mask = batch
    lw = trajectory_log_weight(logp, old, mask)
    for b in range(logp.shape[0]):
        assert lw[b].item() == pytest.approx((logp[b] - old[b])[mask[b]].sum().item(), abs=1e-9)


@given(arrays((6,), -5.0, 5.0))
@settings(max_examples=40)
def test_ess_matches_the_direct_formula_and_lies_between_one_and_n(lw):
    w = torch.exp(lw)
    direct = w.sum() ** 2 / (w**2).sum()
    ess = effective_sample_size(lw)
    torch.testing.assert_close(ess, direct, rtol=1e-10, atol=1e-10)
    assert 1.0 - 1e-9 <= ess.item() <= 6.0 + 1e-9


def test_ess_is_stable_for_huge_log_weights():
    assert effective_sample_size(torch.full((8,), 900.0)).item() == pytest.approx(8.0)
    assert effective_sample_size(torch.tensor([1000.0, 0.0, -1000.0])).item() == pytest.approx(1.0)


def test_grpo_advantages_per_group():
    r = torch.tensor([[1.0, 0, 0, 0], [5.0, 7.0, 5.0, 7.0]])
    a = grpo_advantages(r)
    np.testing.assert_allclose(a[0].numpy(), [1.5, -0.5, -0.5, -0.5], atol=1e-5)  # notes §3.7, unbiased std
    np.testing.assert_allclose(a.sum(-1).numpy(), [0.0, 0.0], atol=1e-9)
    pop = grpo_advantages(r[:1], unbiased=False)
    np.testing.assert_allclose(pop[0].numpy(), [1.732, -0.577, -0.577, -0.577], atol=1e-3)
    assert bool((grpo_advantages(torch.tensor([[0.7]])) == 0).all())
