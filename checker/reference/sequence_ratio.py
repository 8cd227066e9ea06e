"""GSPO's sequence-level importance ratio (Zheng et al. 2025, *Group Sequence Policy Optimization*): the
length-normalised ratio s_i = (pi_theta(y_i) / pi_old(y_i))^(1 / |y_i|), the geometric mean of the token
ratios, clipped in [1 - clip_low, 1 + clip_high], and the GSPO-token form whose per-token ratio
s_i,t = sg[s_i] * pi_theta(y_i,t) / sg[pi_theta(y_i,t)] has the value of s_i and lets a token-level
advantage through (with one advantage per sequence it equals GSPO in value and gradient). Aggregated as
verl's `compute_policy_loss_gspo` does: each sequence's token mean, then the mean over sequences.
"""
from __future__ import annotations

import torch

from checker.reference._tensor import as_mask, f64


def gspo_loss(log_prob, old_log_prob, advantages, mask, clip_low: float = 3e-4, clip_high: float = 4e-4):
    """(loss, seq_ratio): the GSPO(-token) loss and each sequence's ratio s_i ([B], no gradient)."""
    lp = f64(log_prob)
    m = as_mask(mask, lp)
    zero = torch.zeros((), dtype=torch.float64)
    lp = torch.where(m, lp, zero)
    old = torch.where(m, f64(old_log_prob).detach(), zero)
    adv = torch.where(m, f64(advantages).detach(), zero)
    n = m.to(torch.float64).sum(dim=-1).clamp_min(1.0)
    seq_log = (lp - old).sum(dim=-1) / n
    token_ratio = torch.exp(lp - lp.detach() + seq_log.detach().unsqueeze(-1))
    pg = torch.maximum(-adv * token_ratio, -adv * token_ratio.clamp(1.0 - clip_low, 1.0 + clip_high))
    per_seq = torch.where(m, pg, zero).sum(dim=-1) / n
    return per_seq.mean(), torch.exp(seq_log).detach()
