"""CISPO (MiniMax 2025, *MiniMax-M1*, §3.1): REINFORCE on log pi_theta weighted by the importance ratio,
clipped and detached, so no token loses its gradient (PPO's clip drops the gradient of tokens outside the
band; CISPO only bounds their weight). The loss is averaged over every valid token of the batch
(1 / sum_i |o_i|). The paper sets no lower bound (eps_low large) and tunes eps_high."""
from __future__ import annotations

import torch

from checker.reference._tensor import as_mask, f64


def cispo_loss(log_prob, old_log_prob, advantages, mask, eps_high: float = 0.28, eps_low: float | None = None):
    """(loss, weights): -sum sg(clip(r)) A log pi / N over valid tokens, and the weights ([B, T], 0 on
    padding)."""
    lp = f64(log_prob)
    m = as_mask(mask, lp)
    zero = torch.zeros((), dtype=torch.float64)
    lp = torch.where(m, lp, zero)
    old = torch.where(m, f64(old_log_prob).detach(), zero)
    adv = torch.where(m, f64(advantages).detach(), zero)
    w = torch.exp(lp.detach() - old).clamp(max=1.0 + eps_high)
    if eps_low is not None:
        w = w.clamp(min=1.0 - eps_low)
    w = torch.where(m, w, zero)
    loss = -(w * adv * lp).sum() / m.to(torch.float64).sum().clamp_min(1.0)
    return loss, w
