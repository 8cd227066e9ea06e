# expect: right
# framework: torch
# style: verl masked_mean with "/ (mask.sum() + 1e-8)", seq-mean-token-mean over non-empty rows,
#        k3 written with torch.expm1 for accuracy near ratio 1
import math

import torch


def masked_mean(values, mask, axis=None):
    s = (values * mask).sum(axis) if axis is not None else (values * mask).sum()
    n = mask.sum(axis) if axis is not None else mask.sum()
    return s / (n + 1e-8)


def compute_actor_loss(log_probs_new, log_probs_old, advantages, response_mask=None,
                       clip_range=0.2, reduction="token_mean"):
    if reduction not in ("token_mean", "sequence_mean"):
        raise ValueError(f"unsupported reduction: {reduction}")
    if not isinstance(clip_range, (int, float)) or not math.isfinite(clip_range) or clip_range < 0:
        raise ValueError("clip_range must be a finite number >= 0")
    if log_probs_new.shape != log_probs_old.shape or log_probs_new.shape != advantages.shape:
        raise ValueError("log_probs_new, log_probs_old and advantages must share a shape")
    if log_probs_new.dim() != 2 or log_probs_new.numel() == 0:
        raise ValueError("expected 2-D, non-empty inputs")
    if not all(torch.isfinite(x).all() for x in (log_probs_new, log_probs_old, advantages)):
        raise ValueError("inputs must not contain NaN or inf")
    if response_mask is None:
        response_mask = torch.ones_like(log_probs_new, dtype=torch.bool)
    elif response_mask.dtype != torch.bool or response_mask.shape != log_probs_new.shape:
        raise ValueError("response_mask must be a bool tensor with the inputs' shape")
    elif not response_mask.any(dim=-1).all():
        raise ValueError("each row of response_mask needs a True")

    mask = response_mask.to(log_probs_new.dtype)
    old_log_prob = log_probs_old.detach()
    adv = advantages.detach()
    negative_approx_kl = log_probs_new - old_log_prob
    ratio = torch.exp(negative_approx_kl)
    pg_losses = torch.maximum(-adv * ratio, -adv * torch.clamp(ratio, 1 - clip_range, 1 + clip_range))
    if reduction == "token_mean":
        pg_loss = masked_mean(pg_losses, mask)
    else:
        seq_losses = masked_mean(pg_losses, mask, axis=-1)
        seq_mask = (mask.sum(dim=-1) > 0).to(seq_losses.dtype)
        pg_loss = (seq_losses * seq_mask).sum() / (seq_mask.sum() + 1e-8)

    with torch.no_grad():
        nakl = negative_approx_kl.detach()
        k3 = torch.expm1(nakl) - nakl
        clipped = (torch.expm1(nakl).abs() > clip_range).to(mask.dtype)
        metrics = {
            "approx_kl": masked_mean(k3, mask).item(),
            "clip_fraction": masked_mean(clipped, mask).item(),
            "valid_tokens": int(response_mask.sum()),
        }
    return pg_loss, metrics
