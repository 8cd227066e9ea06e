"""Reference tests for ppo_value_loss (PyTorch, [B, T]): values and where the gradient goes."""
import math

import torch

from solution import ppo_value_loss


def t(*rows):
    return torch.tensor(rows, dtype=torch.float64)


def close(a, b):
    return math.isclose(float(a), float(b), rel_tol=1e-5, abs_tol=1e-6)


def test_worked_example():
    assert close(ppo_value_loss(t([1.0, 1.0]), t([0.0, 0.0]), t([2.0, 0.5])), 0.8725)


def test_the_clip_is_around_old_values_not_zero():
    assert close(ppo_value_loss(t([2.0, 2.0]), t([1.0, 1.0]), t([3.0, 1.5])), 0.8725)


def test_inside_the_band_it_is_half_the_mse():
    v, old, r = t([0.1, -0.1, 0.15]), torch.zeros(1, 3, dtype=torch.float64), t([1.0, -1.0, 0.5])
    assert close(ppo_value_loss(v, old, r, clip_eps=0.2), 0.5 * ((v - r) ** 2).mean())


def test_the_band_follows_clip_eps():
    assert close(ppo_value_loss(t([1.0]), t([0.0]), t([2.0]), clip_eps=0.5), 0.5 * 1.5 ** 2)


def test_defaults_are_clip_eps_0_2():
    v, old, r = t([1.0, 1.0]), t([0.0, 0.0]), t([2.0, 0.5])
    assert close(ppo_value_loss(v, old, r), ppo_value_loss(v, old, r, clip_eps=0.2))


def test_overshooting_the_return_keeps_the_larger_error():
    assert close(ppo_value_loss(t([1.0]), t([0.0]), t([0.5])), 0.125)


def test_gradient_only_into_values():
    v = t([1.0, 0.1]).requires_grad_(True)
    old = t([0.0, 0.0]).requires_grad_(True)
    r = t([2.0, 1.0]).requires_grad_(True)
    ppo_value_loss(v, old, r, clip_eps=0.2).backward()
    # element 0: the clipped error is active (no gradient to V); element 1: inside the band, (V - R) / N
    assert torch.allclose(v.grad, t([0.0, (0.1 - 1.0) / 2]), atol=1e-7)
    assert old.grad is None or torch.count_nonzero(old.grad) == 0
    assert r.grad is None or torch.count_nonzero(r.grad) == 0
