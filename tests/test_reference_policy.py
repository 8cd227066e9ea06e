"""Properties of the reference clipped policy loss and its diagnostics."""
from __future__ import annotations

import math

import numpy as np
import pytest
import torch
from hypothesis import given, settings, strategies as st

from checker.reference import AGGREGATION_MODES, aggregate, policy_loss, policy_objective
from tests.strategies import floats, policy_batch


@given(policy_batch(log_ratio_scale=0.15), st.sampled_from([0.2, 0.3]))
@settings(max_examples=50)
def test_equals_unclipped_surrogate_when_every_ratio_is_inside_the_band(batch, eps):
    logp, old, adv, mask = batch  # |log ratio| <= 0.15 keeps ratio in [0.86, 1.17], inside [1-eps, 1+eps]
    loss, stats = policy_loss(logp, old, adv, mask, clip_low=eps)
    surrogate = -(torch.exp(logp - old) * adv)[mask].mean()
    torch.testing.assert_close(loss, surrogate, rtol=1e-12, atol=1e-12)
    assert stats.clip_frac_active == 0.0 and stats.clip_frac_band == 0.0


@given(policy_batch(log_ratio_scale=2.0), floats(0.0, 0.5), floats(0.0, 0.5))
@settings(max_examples=60)
def test_clipped_objective_is_never_above_the_unclipped_one(batch, lo, hi):
    logp, old, adv, _ = batch
    objective, ratio, unclipped, clipped, _ = policy_objective(logp, old, adv, lo, hi)
    assert bool((objective <= unclipped).all())
    assert bool((objective <= clipped).all())


@given(policy_batch(log_ratio_scale=1.0), st.sampled_from([0.1, 0.2]))
@settings(max_examples=60)
def test_gradient_is_zero_on_clipped_tokens_and_minus_a_ratio_over_n_elsewhere(batch, eps):
    logp, old, adv, mask = batch
    logp = logp.clone().requires_grad_(True)
    loss, _ = policy_loss(logp, old, adv, mask, clip_low=eps)
    loss.backward()
    ratio = torch.exp(logp.detach() - old)
    clipped = ((adv > 0) & (ratio > 1 + eps)) | ((adv < 0) & (ratio < 1 - eps))
    n = int(mask.sum())
    expected = torch.where(clipped | ~mask, torch.zeros_like(ratio), -adv * ratio / n)
    torch.testing.assert_close(logp.grad, expected, rtol=1e-10, atol=1e-12)
    assert bool((logp.grad[clipped] == 0).all())


@given(policy_batch(masked=False))
@settings(max_examples=40)
def test_new_equal_old_gives_minus_mean_advantage(batch):
    _, old, adv, _ = batch
    loss, stats = policy_loss(old, old, adv)
    torch.testing.assert_close(loss, -adv.mean(), rtol=1e-12, atol=1e-12)
    assert stats.approx_kl == 0.0 and stats.clip_frac_band == 0.0 and stats.clip_frac_active == 0.0
    assert stats.ratio_min == stats.ratio_max == 1.0


@given(policy_batch(log_ratio_scale=4.0, masked=False), st.sampled_from([2.0, 3.0, 5.0]))
@settings(max_examples=60)
def test_dual_clip_bounds_each_negative_advantage_token_loss_by_minus_c_a(batch, c):
    logp, old, adv, _ = batch
    objective, *_ = policy_objective(logp, old, adv, 0.2, 0.2, dual_clip=c)
    plain, *_ = policy_objective(logp, old, adv, 0.2, 0.2)
    neg = adv < 0
    assert bool((-objective[neg] <= -c * adv[neg] + 1e-12).all())
    torch.testing.assert_close(objective[~neg], plain[~neg], rtol=0, atol=0)  # A >= 0 untouched


def test_dual_clip_must_exceed_one():
    with pytest.raises(ValueError):
        policy_objective(torch.zeros(1), torch.zeros(1), -torch.ones(1), dual_clip=0.5)


@given(policy_batch(), st.sampled_from(AGGREGATION_MODES), st.sampled_from([float("nan"), float("inf"), 1e6, -7.0]))
@settings(max_examples=60)
def test_padded_positions_are_ignored_whatever_they_hold(batch, mode, junk):
    logp, old, adv, mask = batch
    base, base_stats = policy_loss(logp, old, adv, mask, mode=mode)
    pad = ~mask
    l2, o2, a2 = logp.clone(), old.clone(), adv.clone()
    l2[pad], o2[pad], a2[pad] = junk, -junk, junk
    loss, stats = policy_loss(l2, o2, a2, mask, mode=mode)
    torch.testing.assert_close(loss, base, rtol=0, atol=0)
    assert stats == base_stats


def test_asymmetric_band_clips_high_and_low_separately():
    ratio = torch.tensor([0.75, 0.85, 1.25, 1.3])
    for a, expected in [(1.0, [0.75, 0.85, 1.25, 1.28]), (-1.0, [-0.8, -0.85, -1.25, -1.3])]:
        objective, *_ = policy_objective(ratio.log(), torch.zeros(4), torch.full((4,), a), 0.2, 0.28)
        np.testing.assert_allclose(objective.numpy(), expected, rtol=1e-6)


def test_notes_probe_3_3_loss_and_both_clip_fractions():
    """shared/notes §3.3: the loss 0.6 matches OpenRLHF, TRL, rlax and TorchRL; the two clip-fraction
    conventions give 0.33333 (active) and 0.83333 (outside the band); k3 0.49432; dual clip 0.26667;
    TorchRL asymmetric (0.2, 0.28) 0.58667."""
    rho = torch.tensor([1.5, 1.5, 0.5, 0.5, 5.0, 1.0], dtype=torch.float64)
    adv = torch.tensor([1.0, -1, 1, -1, -1, 2], dtype=torch.float64)
    loss, stats = policy_loss(rho.log(), torch.zeros(6), adv)
    assert loss.item() == pytest.approx(0.6, abs=1e-12)
    assert stats.clip_frac_active == pytest.approx(1 / 3)
    assert stats.clip_frac_band == pytest.approx(5 / 6)
    assert stats.approx_kl == pytest.approx(0.49432, abs=1e-5)
    assert (stats.ratio_min, stats.ratio_max) == pytest.approx((0.5, 5.0))
    assert policy_loss(rho.log(), torch.zeros(6), adv, dual_clip=3.0)[0].item() == pytest.approx(0.26667, abs=1e-5)
    assert policy_loss(rho.log(), torch.zeros(6), adv, clip_high=0.28)[0].item() == pytest.approx(0.58667, abs=1e-5)


def test_aggregation_modes_on_notes_probe_3_5():
    """token-mean 1.4; seq-mean-token-sum 3.5; seq-mean-token-mean 2.0; seq-mean-token-sum-norm
    (Dr. GRPO, norm T = 4) (4/4 + 3/4) / 2 = 0.875 (verl's code, without the batch mean, gives 1.75)."""
    lm = torch.tensor([[1.0, 1, 1, 1], [3, 0, 0, 0]])
    m = torch.tensor([[1, 1, 1, 1], [1, 0, 0, 0]])
    got = {mode: aggregate(lm, m, mode).item() for mode in AGGREGATION_MODES}
    assert got == pytest.approx({"token_mean": 1.4, "seq_mean_token_sum": 3.5, "seq_mean_token_mean": 2.0,
                                 "seq_mean_token_sum_norm": 0.875})
    assert aggregate(lm, m, "seq_mean_token_sum_norm", norm_const=2.0).item() == pytest.approx(1.75)
    with pytest.raises(ValueError, match="unknown aggregation mode"):
        aggregate(lm, m, "mean")


@given(policy_batch())
@settings(max_examples=40)
def test_sequence_means_weigh_each_sequence_equally(batch):
    logp, old, adv, mask = batch
    objective, *_ = policy_objective(logp, old, adv)
    per_seq = [(-objective[b][mask[b]]) for b in range(mask.shape[0]) if mask[b].any()]
    mean_of_means = sum(x.mean() for x in per_seq) / len(per_seq)
    mean_of_sums = sum(x.sum() for x in per_seq) / len(per_seq)
    torch.testing.assert_close(policy_loss(logp, old, adv, mask, mode="seq_mean_token_mean")[0], mean_of_means)
    torch.testing.assert_close(policy_loss(logp, old, adv, mask, mode="seq_mean_token_sum")[0], mean_of_sums)


@given(policy_batch(log_ratio_scale=3.0))
@settings(max_examples=40)
def test_approx_kl_k3_is_non_negative_and_clip_fractions_are_fractions(batch):
    logp, old, adv, mask = batch
    _, stats = policy_loss(logp, old, adv, mask)
    assert stats.approx_kl >= 0.0
    assert 0.0 <= stats.clip_frac_active <= stats.clip_frac_band <= 1.0  # active implies outside the band
    ratio = torch.exp(logp - old)[mask]
    assert stats.ratio_min == pytest.approx(ratio.min().item()) and stats.ratio_max == pytest.approx(ratio.max().item())


def test_ratio_is_computed_in_log_space_without_underflow():
    logp = torch.tensor([-1000.0, -1200.0], dtype=torch.float64)
    loss, stats = policy_loss(logp, logp - 0.1, torch.tensor([1.0, -1.0]))
    assert math.isfinite(loss.item()) and math.isfinite(stats.approx_kl)


def test_old_logp_and_advantages_receive_no_gradient():
    logp = torch.zeros(3, requires_grad=True)
    old = torch.full((3,), -0.1, requires_grad=True)
    adv = torch.tensor([1.0, -1.0, 0.5], requires_grad=True)
    policy_loss(logp, old, adv)[0].backward()
    assert old.grad is None and adv.grad is None and logp.grad is not None
