"""Generalised advantage estimation (Schulman et al., 2016, eq. 16), the backward scan with done masks."""
from __future__ import annotations

import torch

from checker.reference._tensor import f64


def gae(rewards, values, dones, gamma: float = 0.99, lam: float = 0.95):
    """Advantages and value targets by GAE.

    Shapes: rewards [..., T], values [..., T+1] (values[..., T] is the bootstrap value V(s_T)),
    dones [..., T] with dones[..., t] = 1 when the episode ENDED at step t: then nothing after t is
    used, neither V(s_{t+1}) nor the advantage carried back from t+1.

        delta_t = r_t + gamma * V(s_{t+1}) * (1 - done_t) - V(s_t)
        A_t     = delta_t + gamma * lam * (1 - done_t) * A_{t+1},   A_T = 0
        returns = A + values[..., :T]

    lam = 0 gives the one-step TD error (low variance, biased by V); lam = 1 gives the discounted
    Monte-Carlo return minus V (unbiased, high variance). Returns (advantages, returns), float64.
    """
    r, v, d = f64(rewards), f64(values), f64(dones)
    T = r.shape[-1]
    if v.shape[-1] != T + 1:
        raise ValueError(f"values must have T+1 = {T + 1} entries on the last dim, got {v.shape[-1]}")
    not_done = 1.0 - d
    advantages = torch.zeros_like(r)
    carry = torch.zeros_like(r[..., 0])
    for t in reversed(range(T)):
        delta = r[..., t] + gamma * v[..., t + 1] * not_done[..., t] - v[..., t]
        carry = delta + gamma * lam * not_done[..., t] * carry
        advantages[..., t] = carry
    return advantages, advantages + v[..., :T]
