"""The RLHF actor loss of the actor-loss drill: the clipped objective over response tokens with
token-mean or sequence-mean reduction, its diagnostics and its input contract."""
from __future__ import annotations

import math

import torch

from checker.reference.policy import policy_loss

REDUCTIONS = {"token_mean": "token_mean", "sequence_mean": "seq_mean_token_mean"}


def validate_actor_inputs(log_probs_new, log_probs_old, advantages, response_mask, clip_range, reduction):
    """Raise ValueError for any input the drill's contract rejects, naming what is wrong."""
    if log_probs_new.shape != log_probs_old.shape or log_probs_new.shape != advantages.shape:
        raise ValueError("log_probs_new, log_probs_old and advantages must have the same shape")
    if log_probs_new.ndim != 2 or log_probs_new.numel() == 0:
        raise ValueError("log-probs must be a non-empty 2-D [batch, sequence] tensor")
    for name, t in (("log_probs_new", log_probs_new), ("log_probs_old", log_probs_old), ("advantages", advantages)):
        if not torch.isfinite(t).all():
            raise ValueError(f"{name} must be finite")
    clip = float(clip_range)
    if not math.isfinite(clip) or clip < 0:
        raise ValueError("clip_range must be a finite non-negative number")
    if response_mask is not None:
        if response_mask.shape != log_probs_new.shape or response_mask.dtype != torch.bool:
            raise ValueError("response_mask must be a boolean tensor of the same shape")
        if not bool(response_mask.any(dim=-1).all()):
            raise ValueError("every response must have at least one valid token")
    if reduction not in REDUCTIONS:
        raise ValueError("reduction must be 'token_mean' or 'sequence_mean'")


def compute_actor_loss(log_probs_new, log_probs_old, advantages, response_mask=None, clip_range=0.2,
                       reduction="token_mean"):
    """(loss, metrics) exactly as the actor-loss drill's prompt defines them.

    loss = -mean of min(ratio A, clip(ratio, 1 - eps, 1 + eps) A) over valid tokens ("token_mean"), or
    the mean over responses of each response's valid-token mean ("sequence_mean").
    metrics: approx_kl (k3 over valid tokens), clip_fraction (fraction of valid tokens with
    |ratio - 1| > clip_range: the outside-band definition, not the "clipped branch active" one),
    valid_tokens (int).
    """
    validate_actor_inputs(log_probs_new, log_probs_old, advantages, response_mask, clip_range, reduction)
    clip = float(clip_range)
    mask = torch.ones_like(log_probs_new, dtype=torch.bool) if response_mask is None else response_mask
    loss, stats = policy_loss(log_probs_new, log_probs_old, advantages, mask, clip_low=clip,
                              mode=REDUCTIONS[reduction])
    metrics = {"approx_kl": stats.approx_kl, "clip_fraction": stats.clip_frac_band,
               "valid_tokens": int(mask.sum())}
    return loss, metrics
