"""Reference tests for ppo_value_loss (NumPy): each test checks one property, with a tolerance."""
import numpy as np

from solution import ppo_value_loss


def test_worked_example():
    # V = [1, 1], V_old = [0, 0], R = [2, 0.5]: max(1, 3.24) and max(0.25, 0.09) -> 0.5 * mean = 0.8725
    assert np.isclose(ppo_value_loss(np.array([1.0, 1.0]), np.array([0.0, 0.0]), np.array([2.0, 0.5])), 0.8725)


def test_the_clip_is_around_old_values_not_zero():
    # the same example shifted by 1: the loss is unchanged
    assert np.isclose(ppo_value_loss(np.array([2.0, 2.0]), np.array([1.0, 1.0]), np.array([3.0, 1.5])), 0.8725)


def test_inside_the_band_it_is_half_the_mse():
    v, old, r = np.array([0.1, -0.1, 0.15]), np.zeros(3), np.array([1.0, -1.0, 0.5])
    assert np.isclose(ppo_value_loss(v, old, r, clip_eps=0.2), 0.5 * np.mean((v - r) ** 2))


def test_the_band_follows_clip_eps():
    v, old, r = np.array([1.0]), np.array([0.0]), np.array([2.0])
    assert np.isclose(ppo_value_loss(v, old, r, clip_eps=0.5), 0.5 * (0.5 - 2.0) ** 2)


def test_defaults_are_clip_eps_0_2():
    v, old, r = np.array([1.0, 1.0]), np.array([0.0, 0.0]), np.array([2.0, 0.5])
    assert np.isclose(ppo_value_loss(v, old, r), ppo_value_loss(v, old, r, clip_eps=0.2))


def test_overshooting_the_return_keeps_the_larger_error():
    # V moved past R: unclipped (1 - 0.5)^2 = 0.25 beats clipped (0.2 - 0.5)^2 = 0.09
    assert np.isclose(ppo_value_loss(np.array([1.0]), np.array([0.0]), np.array([0.5])), 0.125)
