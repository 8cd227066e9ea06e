"""DAPO's batch step (Yu et al. 2025, *DAPO: An Open-Source LLM Reinforcement Learning System at Scale*):
the soft overlong punishment added to each score, the dynamic-sampling filter that drops groups whose
scores are all equal (they carry no advantage), overlong filtering (truncated responses left out of the
loss), GRPO's group advantage of the shaped rewards, and the policy loss with the decoupled clip band
[1 - clip_low, 1 + clip_high] averaged over every token kept in the batch (token-level aggregation).

Soft overlong punishment, with L_max = max_len and L_cache = cache_len: 0 for |y| <= L_max - L_cache,
((L_max - L_cache) - |y|) / L_cache inside the last L_cache tokens, -1 beyond L_max (verl's DAPO reward
manager: min(-(|y| - (L_max - L_cache)) / L_cache * factor, 0) with factor 1). The filter looks at the raw
scores, as DAPO's accuracy condition 0 < #correct < G does; groups of one are not allowed here.
"""
from __future__ import annotations

import torch

from checker.reference._tensor import as_mask, f64


def overlong_penalty(lengths, max_len: int, cache_len: int) -> torch.Tensor:
    n = f64(lengths)
    expected = float(max_len - cache_len)
    inside = (expected - n) / float(cache_len)
    return torch.where(n <= expected, torch.zeros_like(n), torch.where(n <= max_len, inside, -torch.ones_like(n)))


def dapo_loss(log_prob, old_log_prob, scores, mask, truncated, group_size: int, max_len: int, cache_len: int,
              clip_low: float = 0.2, clip_high: float = 0.28, overlong_filter: bool = True, eps: float = 1e-6):
    """(loss, advantages [B], loss_mask [B, T] bool)."""
    lp = f64(log_prob)
    m = as_mask(mask, lp)
    s = f64(scores)
    B = s.shape[0]
    if group_size < 2 or B % group_size != 0:
        raise ValueError("DAPO needs groups of at least two samples that fill the batch")
    if not 0 < cache_len < max_len:
        raise ValueError("cache_len must lie between 0 and max_len")
    lengths = m.to(torch.float64).sum(dim=-1)
    rewards = (s + overlong_penalty(lengths, max_len, cache_len)).reshape(-1, group_size)
    raw = s.reshape(-1, group_size)
    keep_group = (raw.max(dim=1).values > raw.min(dim=1).values)
    std = rewards.std(dim=1, keepdim=True, unbiased=True)
    adv = (rewards - rewards.mean(dim=1, keepdim=True)) / (std + eps)
    adv = torch.where(keep_group.unsqueeze(-1), adv, torch.zeros_like(adv)).reshape(-1)
    keep_row = keep_group.repeat_interleave(group_size)
    if overlong_filter:
        keep_row = keep_row & ~torch.as_tensor(truncated, dtype=torch.bool)
    loss_mask = m & keep_row.unsqueeze(-1)
    zero = torch.zeros((), dtype=torch.float64)
    lp = torch.where(loss_mask, lp, zero)
    old = torch.where(loss_mask, f64(old_log_prob).detach(), zero)
    a = adv.detach().unsqueeze(-1).expand(lp.shape)
    ratio = torch.exp(lp - old)
    pg = torch.maximum(-a * ratio, -a * ratio.clamp(1.0 - clip_low, 1.0 + clip_high))
    loss = torch.where(loss_mask, pg, zero).sum() / loss_mask.to(torch.float64).sum().clamp_min(1.0)
    return loss, adv.detach(), loss_mask
