"""Rollout/trainer mismatch correction: the PPO ratio split into pi_train / pi_rollout (a constant weight
that corrects for the inference engine's sampler) times pi_theta / pi_old (PPO's ratio), with the
correction truncated (TIS) or used to reject outliers (MIS), per token or per sequence.

Conventions (verl's rollout correction, `rollout_corr_helper.py`, and its docs `rollout_is.md`): the
weight is computed in log space from old_log_prob (the trainer's log-probs of the rollout policy's
parameters) minus rollout_log_prob (the inference engine's); a sequence's weight is the product of its
token weights, exp of the sum of the log-weights over its valid tokens; "truncate" caps the weight at
the threshold from above only; "mask" keeps a token (or the whole sequence) iff
1 / threshold <= weight <= threshold and rejects it from the loss, numerator and denominator. The weight
is data: no gradient reaches it.
"""
from __future__ import annotations

import torch

from checker.reference._tensor import as_mask, f64

LEVELS = ("token", "sequence")
MODES = ("truncate", "mask")


def correction_weights(old_log_prob, rollout_log_prob, mask, level: str = "token", mode: str = "truncate",
                       threshold: float = 2.0):
    """(weights, keep): the per-token correction weight ([B, T], 0 on padding and on rejected tokens) and
    the tokens kept in the loss (bool [B, T])."""
    if level not in LEVELS or mode not in MODES:
        raise ValueError(f"level must be one of {LEVELS} and mode one of {MODES}")
    if not threshold > 1.0:
        raise ValueError(f"threshold must be > 1, got {threshold}")
    old = f64(old_log_prob).detach()
    m = as_mask(mask, old)
    zero = torch.zeros((), dtype=torch.float64)
    log_w = torch.where(m, old - f64(rollout_log_prob).detach(), zero)
    if level == "sequence":
        log_w = log_w.sum(dim=-1, keepdim=True).expand(old.shape)
    w = torch.exp(log_w)
    if mode == "truncate":
        keep = m
        weights = torch.where(m, w.clamp(max=threshold), zero)
    else:
        keep = m & (w >= 1.0 / threshold) & (w <= threshold)
        weights = torch.where(keep, w, zero)
    return weights, keep


def corrected_policy_loss(log_prob, old_log_prob, rollout_log_prob, advantages, mask, level: str = "token",
                          mode: str = "truncate", threshold: float = 2.0, clip_eps: float = 0.2):
    """(loss, weights): PPO's clipped surrogate per token, times the correction weight, averaged over the
    kept tokens (0 when none is kept)."""
    weights, keep = correction_weights(old_log_prob, rollout_log_prob, mask, level, mode, threshold)
    lp = f64(log_prob)
    zero = torch.zeros((), dtype=torch.float64)
    old = torch.where(keep, f64(old_log_prob).detach(), zero)
    adv = torch.where(keep, f64(advantages).detach(), zero)
    ratio = torch.exp(torch.where(keep, lp, zero) - old)
    pg = -torch.minimum(ratio * adv, ratio.clamp(1.0 - clip_eps, 1.0 + clip_eps) * adv)
    per_token = torch.where(keep, weights * pg, zero)
    loss = per_token.sum() / keep.to(torch.float64).sum().clamp_min(1.0)
    return loss, weights
