"""Reference tests for ppo_policy_loss (NumPy): each test checks one property, with a tolerance."""
import numpy as np

from solution import ppo_policy_loss

OLD = np.array([-1.0, -2.0, -0.5, -3.0])
RATIO = np.array([1.5, 0.5, 1.1, 0.9])   # above the band, below it, inside twice (eps = 0.2)
NEW = OLD + np.log(RATIO)
ADV = np.array([1.0, -1.0, 1.0, -1.0])


def expected(ratio, adv, eps):
    return -np.mean(np.minimum(ratio * adv, np.clip(ratio, 1 - eps, 1 + eps) * adv))


def test_ratio_one_is_minus_mean_advantage():
    adv = np.array([2.0, -1.0, 0.5])
    logp = np.array([-1.0, -2.0, -3.0])
    assert np.isclose(ppo_policy_loss(logp, logp, adv, clip_eps=0.2), -np.mean(adv))


def test_worked_example_inside_and_outside_the_band():
    # per element: min(1.5, 1.2) * 1, min(-0.5, -0.8), 1.1, -0.9 -> loss = -(1.2 - 0.8 + 1.1 - 0.9) / 4
    assert np.isclose(ppo_policy_loss(NEW, OLD, ADV, clip_eps=0.2), -0.15)


def test_the_band_follows_clip_eps():
    assert np.isclose(ppo_policy_loss(NEW, OLD, ADV, clip_eps=0.05), expected(RATIO, ADV, 0.05))


def test_defaults_are_clip_eps_0_2():
    assert np.isclose(ppo_policy_loss(NEW, OLD, ADV), ppo_policy_loss(NEW, OLD, ADV, clip_eps=0.2))


def test_mean_not_sum():
    twice = ppo_policy_loss(np.tile(NEW, 2), np.tile(OLD, 2), np.tile(ADV, 2), clip_eps=0.2)
    assert np.isclose(twice, ppo_policy_loss(NEW, OLD, ADV, clip_eps=0.2))


def test_log_space_ratio_with_very_negative_log_probs():
    loss = ppo_policy_loss(NEW - 1000.0, OLD - 1000.0, ADV, clip_eps=0.2)
    assert np.isfinite(loss) and np.isclose(loss, -0.15)


def test_ratio_is_new_over_old():
    # ratio 2 with A = 1 is clipped at 1.2; the inverse ratio 0.5 would not be
    assert np.isclose(ppo_policy_loss(np.array([np.log(2.0)]), np.array([0.0]), np.array([1.0])), -1.2)


def test_a_clipped_ratio_below_the_band_with_positive_advantage_is_not_clipped():
    # min(0.5 * 1, 0.8 * 1) = 0.5: for A > 0 the clip only caps improvements
    assert np.isclose(ppo_policy_loss(np.array([np.log(0.5)]), np.array([0.0]), np.array([1.0])), -0.5)


def test_negative_advantage_above_the_band_is_not_clipped():
    # min(1.5 * -1, 1.2 * -1) = -1.5
    assert np.isclose(ppo_policy_loss(np.array([np.log(1.5)]), np.array([0.0]), np.array([-1.0])), 1.5)
