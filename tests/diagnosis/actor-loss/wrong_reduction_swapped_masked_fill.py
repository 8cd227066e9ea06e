# expect: reduction-swapped
# framework: torch
# style: masked_fill pads to 0, the two reduction branches exchanged
import math

import torch


def compute_actor_loss(log_probs_new, log_probs_old, advantages, response_mask=None,
                       clip_range=0.2, reduction="token_mean"):
    if reduction not in ("token_mean", "sequence_mean"):
        raise ValueError(f"reduction={reduction!r}")
    if isinstance(clip_range, bool) or not math.isfinite(float(clip_range)) or clip_range < 0:
        raise ValueError(f"clip_range={clip_range!r}")
    if not (log_probs_new.shape == log_probs_old.shape and log_probs_new.shape == advantages.shape):
        raise ValueError("shapes differ")
    if log_probs_new.dim() != 2:
        raise ValueError("inputs must be 2-D")
    B, L = log_probs_new.shape
    if B == 0 or L == 0:
        raise ValueError("empty batch")
    for t in (log_probs_new, log_probs_old, advantages):
        if torch.isnan(t).any() or torch.isinf(t).any():
            raise ValueError("non-finite input")
    if response_mask is None:
        response_mask = torch.ones(B, L, dtype=torch.bool)
    elif response_mask.dtype != torch.bool or tuple(response_mask.shape) != (B, L):
        raise ValueError("response_mask must be a [batch, seq_len] bool tensor")
    elif not response_mask.any(dim=1).all():
        raise ValueError("some response has no valid token")

    pad = ~response_mask
    ratio = (log_probs_new - log_probs_old.detach()).exp()
    adv = advantages.detach()
    clipped = ratio.clamp(min=1 - clip_range, max=1 + clip_range)
    token_loss = torch.max(-adv * ratio, -adv * clipped).masked_fill(pad, 0.0)
    counts = response_mask.sum(dim=1)
    if reduction == "sequence_mean":
        loss = token_loss.sum() / counts.sum()
    else:
        loss = (token_loss.sum(dim=1) / counts).mean()

    with torch.no_grad():
        lr = (log_probs_new - log_probs_old).masked_fill(pad, 0.0)
        r = lr.exp()
        n = int(counts.sum())
        kl = ((r - 1) - lr).masked_fill(pad, 0.0).sum().item() / n
        outside = ((r - 1).abs() > clip_range) & response_mask
        frac = outside.sum().item() / n
    return loss, {"approx_kl": float(kl), "clip_fraction": float(frac), "valid_tokens": n}
