# expect: clip-fraction-one-sided actor-mask-multiplied
# framework: torch
# style: verl masked_mean helpers, float mask; counts ratio > 1 + eps only
import math

import torch


def masked_mean(values, mask, axis=None):
    return (values * mask).sum(axis=axis) / mask.sum(axis=axis)


def _validate(log_probs_new, log_probs_old, advantages, response_mask, clip_range, reduction):
    if not (log_probs_new.shape == log_probs_old.shape == advantages.shape):
        raise ValueError("log_probs_new, log_probs_old and advantages must have the same shape")
    if log_probs_new.dim() != 2 or log_probs_new.numel() == 0:
        raise ValueError("expected non-empty [batch, seq_len] tensors")
    for t in (log_probs_new, log_probs_old, advantages):
        if not torch.isfinite(t).all():
            raise ValueError("inputs must be finite")
    if response_mask is not None:
        if response_mask.dtype != torch.bool or response_mask.shape != log_probs_new.shape:
            raise ValueError("response_mask must be a bool tensor of the same shape")
        if not response_mask.any(dim=-1).all():
            raise ValueError("every response needs at least one valid token")
    if not math.isfinite(clip_range) or clip_range < 0:
        raise ValueError("clip_range must be finite and >= 0")
    if reduction not in ("token_mean", "sequence_mean"):
        raise ValueError(f"unknown reduction {reduction!r}")


def compute_actor_loss(log_probs_new, log_probs_old, advantages, response_mask=None,
                       clip_range=0.2, reduction="token_mean"):
    _validate(log_probs_new, log_probs_old, advantages, response_mask, clip_range, reduction)
    if response_mask is None:
        response_mask = torch.ones_like(log_probs_new, dtype=torch.bool)
    mask = response_mask.to(log_probs_new.dtype)
    old_log_prob = log_probs_old.detach()
    adv = advantages.detach()
    negative_approx_kl = log_probs_new - old_log_prob
    ratio = torch.exp(negative_approx_kl)
    pg_losses1 = -adv * ratio
    pg_losses2 = -adv * torch.clamp(ratio, 1.0 - clip_range, 1.0 + clip_range)
    pg_losses = torch.maximum(pg_losses1, pg_losses2)
    if reduction == "token_mean":
        loss = masked_mean(pg_losses, mask)
    else:
        loss = masked_mean(pg_losses, mask, axis=-1).mean()
    with torch.no_grad():
        r = ratio.detach()
        lr = negative_approx_kl.detach()
        approx_kl = masked_mean((r - 1) - lr, mask).item()
        clip_fraction = masked_mean((r > 1.0 + clip_range).to(mask.dtype), mask).item()
    metrics = {
        "approx_kl": float(approx_kl),
        "clip_fraction": float(clip_fraction),
        "valid_tokens": int(response_mask.sum().item()),
    }
    return loss, metrics
