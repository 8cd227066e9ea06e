"""Reference tests for compute_gae (NumPy): each test checks one property, with a tolerance."""
import numpy as np

from solution import compute_gae


def close(a, b):
    return np.allclose(np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64), rtol=1e-5, atol=1e-6)


R = np.array([1.0, 2.0, 3.0, 4.0])
V = np.array([0.5, 0.4, 0.3, 0.2, 0.7])
NO_DONES = np.zeros(4)


def test_worked_example():
    adv, _ = compute_gae(R, V, NO_DONES, gamma=0.9, lam=0.8)
    assert close(adv, [5.35288, 6.24011, 6.0696, 4.43])


def test_done_in_the_middle():
    adv, _ = compute_gae(R, V, np.array([0.0, 1.0, 0.0, 0.0]), gamma=0.9, lam=0.8)
    assert close(adv, [2.012, 1.6, 6.0696, 4.43])


def test_lam_zero_gives_td_errors():
    dones = np.array([0.0, 1.0, 0.0, 0.0])
    adv, _ = compute_gae(R, V, dones, gamma=0.9, lam=0.0)
    assert close(adv, R + 0.9 * V[1:] * (1 - dones) - V[:-1])


def test_lam_one_is_monte_carlo():
    gamma, T = 0.9, len(R)
    adv, _ = compute_gae(R, V, NO_DONES, gamma=gamma, lam=1.0)
    want = [sum(gamma ** (k - t) * R[k] for k in range(t, T)) + gamma ** (T - t) * V[T] - V[t] for t in range(T)]
    assert close(adv, want)


def test_returns_are_advantages_plus_values():
    adv, ret = compute_gae(R, V, np.array([0.0, 1.0, 0.0, 0.0]), gamma=0.9, lam=0.8)
    assert close(np.asarray(ret) - np.asarray(adv), V[:-1])


def test_last_advantage_follows_the_bootstrap():
    a1, _ = compute_gae(R, V, NO_DONES, gamma=0.9, lam=0.8)
    V2 = V.copy()
    V2[-1] += 1.0
    a2, _ = compute_gae(R, V2, NO_DONES, gamma=0.9, lam=0.8)
    assert close(np.asarray(a2)[-1] - np.asarray(a1)[-1], 0.9)


def test_done_at_the_end_ignores_the_bootstrap():
    dones = np.array([0.0, 0.0, 0.0, 1.0])
    a1, _ = compute_gae(R, V, dones, gamma=0.9, lam=0.8)
    V2 = V.copy()
    V2[-1] += 5.0
    a2, _ = compute_gae(R, V2, dones, gamma=0.9, lam=0.8)
    assert close(a1, a2)


def test_done_cuts_what_comes_after():
    dones = np.array([0.0, 1.0, 0.0, 0.0])
    a1, _ = compute_gae(R, V, dones, gamma=0.9, lam=0.8)
    R2 = R.copy()
    R2[2:] += 10.0
    a2, _ = compute_gae(R2, V, dones, gamma=0.9, lam=0.8)
    assert close(np.asarray(a1)[:2], np.asarray(a2)[:2])


def test_defaults():
    a1, r1 = compute_gae(R, V, NO_DONES)
    a2, r2 = compute_gae(R, V, NO_DONES, gamma=0.99, lam=0.95)
    assert close(a1, a2) and close(r1, r2)
