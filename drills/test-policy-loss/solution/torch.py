"""Reference tests for ppo_policy_loss (PyTorch, [B, T]): values and where the gradient goes."""
import math

import torch

from solution import ppo_policy_loss

OLD = torch.tensor([[-1.0, -2.0], [-0.5, -3.0]], dtype=torch.float64)
RATIO = torch.tensor([[1.5, 0.5], [1.1, 0.9]], dtype=torch.float64)
ADV = torch.tensor([[1.0, -1.0], [1.0, -1.0]], dtype=torch.float64)


def new():
    return (OLD + RATIO.log()).clone().requires_grad_(True)


def close(a, b):
    return math.isclose(float(a), float(b), rel_tol=1e-5, abs_tol=1e-6)


def expected(ratio, adv, eps):
    return -torch.min(ratio * adv, ratio.clamp(1 - eps, 1 + eps) * adv).mean()


def test_ratio_one_is_minus_mean_advantage():
    logp = torch.tensor([[-1.0, -2.0, -3.0]], dtype=torch.float64)
    adv = torch.tensor([[2.0, -1.0, 0.5]], dtype=torch.float64)
    assert close(ppo_policy_loss(logp, logp.clone(), adv, clip_eps=0.2), -adv.mean())


def test_worked_example_inside_and_outside_the_band():
    assert close(ppo_policy_loss(new(), OLD, ADV, clip_eps=0.2), -0.15)


def test_the_band_follows_clip_eps():
    assert close(ppo_policy_loss(new(), OLD, ADV, clip_eps=0.05), expected(RATIO, ADV, 0.05))


def test_defaults_are_clip_eps_0_2():
    assert close(ppo_policy_loss(new(), OLD, ADV), ppo_policy_loss(new(), OLD, ADV, clip_eps=0.2))


def test_mean_not_sum():
    twice = ppo_policy_loss(torch.cat([new(), new()]), torch.cat([OLD, OLD]), torch.cat([ADV, ADV]))
    assert close(twice, ppo_policy_loss(new(), OLD, ADV))


def test_log_space_ratio_with_very_negative_log_probs():
    loss = ppo_policy_loss(new() - 1000.0, OLD - 1000.0, ADV, clip_eps=0.2)
    assert torch.isfinite(loss) and close(loss, -0.15)


def test_ratio_is_new_over_old():
    assert close(ppo_policy_loss(torch.tensor([[math.log(2.0)]]), torch.tensor([[0.0]]), torch.tensor([[1.0]])), -1.2)


def test_positive_advantage_below_the_band_is_not_clipped():
    assert close(ppo_policy_loss(torch.tensor([[math.log(0.5)]]), torch.tensor([[0.0]]), torch.tensor([[1.0]])), -0.5)


def test_negative_advantage_above_the_band_is_not_clipped():
    assert close(ppo_policy_loss(torch.tensor([[math.log(1.5)]]), torch.tensor([[0.0]]), torch.tensor([[-1.0]])), 1.5)


def test_gradient_only_inside_the_band_and_only_into_new_logp():
    n = new()
    old = OLD.clone().requires_grad_(True)
    adv = ADV.clone().requires_grad_(True)
    ppo_policy_loss(n, old, adv, clip_eps=0.2).backward()
    # d/d new_logp of -ratio * A / N where the unclipped branch is active, 0 where the clip is
    want = torch.where(torch.tensor([[False, False], [True, True]]), -RATIO * ADV / 4, torch.zeros(2, 2,
                       dtype=torch.float64))
    assert torch.allclose(n.grad, want, rtol=1e-5, atol=1e-7)
    assert old.grad is None or torch.count_nonzero(old.grad) == 0
    assert adv.grad is None or torch.count_nonzero(adv.grad) == 0
