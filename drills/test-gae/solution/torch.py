"""Reference tests for compute_gae (PyTorch, [B, T] batches): each test checks one property."""
import torch

from solution import compute_gae


def close(a, b):
    a = torch.as_tensor(a, dtype=torch.float64)
    b = torch.as_tensor(b, dtype=torch.float64)
    return a.shape == b.shape and torch.allclose(a, b, rtol=1e-5, atol=1e-6)


R = torch.tensor([[1.0, 2.0, 3.0, 4.0], [0.0, -1.0, 0.5, 2.0]], dtype=torch.float64)
V = torch.tensor([[0.5, 0.4, 0.3, 0.2, 0.7], [0.0, 0.1, -0.2, 0.3, 1.0]], dtype=torch.float64)
NO_DONES = torch.zeros(2, 4, dtype=torch.float64)
MID = torch.tensor([[0.0, 1.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0]], dtype=torch.float64)


def test_worked_example():
    adv, _ = compute_gae(R[:1], V[:1], NO_DONES[:1], gamma=0.9, lam=0.8)
    assert close(adv, [[5.35288, 6.24011, 6.0696, 4.43]])


def test_done_in_the_middle():
    adv, _ = compute_gae(R[:1], V[:1], MID[:1], gamma=0.9, lam=0.8)
    assert close(adv, [[2.012, 1.6, 6.0696, 4.43]])


def test_lam_zero_gives_td_errors():
    adv, _ = compute_gae(R, V, MID, gamma=0.9, lam=0.0)
    assert close(adv, R + 0.9 * V[:, 1:] * (1 - MID) - V[:, :-1])


def test_lam_one_is_monte_carlo():
    gamma, T = 0.9, R.shape[1]
    adv, _ = compute_gae(R, V, NO_DONES, gamma=gamma, lam=1.0)
    want = torch.stack([sum(gamma ** (k - t) * R[:, k] for k in range(t, T)) + gamma ** (T - t) * V[:, T] - V[:, t]
                        for t in range(T)], dim=1)
    assert close(adv, want)


def test_returns_are_advantages_plus_values():
    adv, ret = compute_gae(R, V, MID, gamma=0.9, lam=0.8)
    assert close(ret - adv, V[:, :-1])


def test_last_advantage_follows_the_bootstrap():
    a1, _ = compute_gae(R, V, NO_DONES, gamma=0.9, lam=0.8)
    V2 = V.clone()
    V2[:, -1] += 1.0
    a2, _ = compute_gae(R, V2, NO_DONES, gamma=0.9, lam=0.8)
    assert close(a2[:, -1] - a1[:, -1], [0.9, 0.9])


def test_done_at_the_end_ignores_the_bootstrap():
    dones = torch.tensor([[0.0, 0.0, 0.0, 1.0]] * 2, dtype=torch.float64)
    a1, _ = compute_gae(R, V, dones, gamma=0.9, lam=0.8)
    V2 = V.clone()
    V2[:, -1] += 5.0
    a2, _ = compute_gae(R, V2, dones, gamma=0.9, lam=0.8)
    assert close(a1, a2)


def test_done_cuts_what_comes_after():
    a1, _ = compute_gae(R, V, MID, gamma=0.9, lam=0.8)
    R2 = R.clone()
    R2[:, 2:] += 10.0
    a2, _ = compute_gae(R2, V, MID, gamma=0.9, lam=0.8)
    assert close(a1[:, :2], a2[:, :2])


def test_rows_are_independent():
    a_both, _ = compute_gae(R, V, MID, gamma=0.9, lam=0.8)
    a_one, _ = compute_gae(R[1:], V[1:], MID[1:], gamma=0.9, lam=0.8)
    assert close(a_both[1:], a_one)


def test_defaults():
    a1, r1 = compute_gae(R, V, NO_DONES)
    a2, r2 = compute_gae(R, V, NO_DONES, gamma=0.99, lam=0.95)
    assert close(a1, a2) and close(r1, r2)
