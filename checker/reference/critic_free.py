"""Critic-free advantages beside GRPO's: Dr. GRPO's (Liu et al. 2025, *Understanding R1-Zero-Like
Training*: the group mean subtracted, no division by the group's std), REINFORCE++'s (Hu 2025,
*REINFORCE++*: a token-level reward with the KL penalty in it, its return to the end of the response, and
the returns whitened over every valid token of the global batch instead of per group) and
REINFORCE++-baseline's (the group mean subtracted from the score, then the same global whitening).

Conventions, as verl's `compute_reinforce_plus_plus_outcome_advantage` and
`compute_reinforce_plus_plus_baseline_outcome_advantage` with `apply_kl_penalty` write them: the KL is k1,
old_log_prob - ref_log_prob, per token, entering the reward as -kl_coef * k1 on every valid token, with
the score on the last valid token; gamma = 1; whitening is (x - mean) * rsqrt(var + 1e-8) with the mean
and the Bessel-corrected variance over valid tokens (verl's `masked_whiten`; OpenRLHF uses the population
variance). Padding is 0 in every output.
"""
from __future__ import annotations

import torch

from checker.reference._tensor import as_mask, f64

ESTIMATORS = ("reinforce_pp", "reinforce_pp_baseline", "dr_grpo")
WHITEN_EPS = 1e-8


def whiten_unbiased(x, mask) -> torch.Tensor:
    zero = torch.zeros((), dtype=torch.float64)
    n = mask.to(torch.float64).sum()
    mean = torch.where(mask, x, zero).sum() / n
    centred = torch.where(mask, x - mean, zero)
    var = (centred**2).sum() / (n - 1)
    return torch.where(mask, centred * torch.rsqrt(var + WHITEN_EPS), zero)


def critic_free_advantages(scores, old_log_prob, ref_log_prob, mask, group_size: int = 1,
                           estimator: str = "reinforce_pp", kl_coef: float = 0.01) -> torch.Tensor:
    s = f64(scores)
    lp = f64(old_log_prob)
    m = as_mask(mask, lp)
    B = s.shape[0]
    if estimator not in ESTIMATORS:
        raise ValueError(f"unknown estimator {estimator!r}; expected one of {ESTIMATORS}")
    if group_size < 1 or B % group_size != 0:
        raise ValueError("the batch must hold a whole number of groups")
    if estimator != "dr_grpo" and int(m.sum()) < 2:
        raise ValueError("whitening needs at least two valid tokens")
    zero = torch.zeros((), dtype=torch.float64)
    if estimator == "reinforce_pp":
        kl = torch.where(m, lp - f64(ref_log_prob), zero)
        T = lp.shape[-1]
        positions = torch.arange(T).expand(lp.shape)
        last = torch.where(m, positions, torch.full_like(positions, -1)).max(dim=-1).values
        rewards = -kl_coef * kl + (positions == last.unsqueeze(-1)).to(torch.float64) * s.unsqueeze(-1)
        returns = torch.flip(torch.cumsum(torch.flip(torch.where(m, rewards, zero), [-1]), -1), [-1])
        return whiten_unbiased(returns, m)
    grouped = s.reshape(-1, group_size)
    centred = (grouped - grouped.mean(dim=1, keepdim=True)).reshape(-1, 1).expand(lp.shape)
    per_token = torch.where(m, centred, zero)
    if estimator == "dr_grpo":
        return per_token
    return whiten_unbiased(per_token, m)
