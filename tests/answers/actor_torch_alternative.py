import math

import torch


def compute_actor_loss(log_probs_new, log_probs_old, advantages, response_mask=None, clip_range=0.2,
                       reduction="token_mean"):
    if not (log_probs_new.shape == log_probs_old.shape == advantages.shape):
        raise ValueError("shape mismatch")
    if log_probs_new.dim() != 2 or log_probs_new.numel() == 0:
        raise ValueError("need a non-empty [B, T] tensor")
    for t in (log_probs_new, log_probs_old, advantages):
        if not torch.isfinite(t).all():
            raise ValueError("non-finite input")
    if not math.isfinite(clip_range) or clip_range < 0:
        raise ValueError("bad clip_range")
    if reduction not in ("token_mean", "sequence_mean"):
        raise ValueError("bad reduction")
    if response_mask is None:
        response_mask = torch.ones_like(log_probs_new, dtype=torch.bool)
    if response_mask.dtype != torch.bool or response_mask.shape != log_probs_new.shape:
        raise ValueError("mask must be boolean and same shape")
    if not response_mask.any(dim=1).all():
        raise ValueError("empty response")
    m = response_mask.float()
    log_ratio = log_probs_new - log_probs_old.detach()
    ratio = log_ratio.exp()
    adv = advantages.detach()
    obj = torch.maximum(-ratio * adv, -ratio.clamp(1 - clip_range, 1 + clip_range) * adv)
    if reduction == "token_mean":
        loss = torch.where(response_mask, obj, 0.0).sum() / m.sum()
    else:
        loss = (torch.where(response_mask, obj, 0.0).sum(1) / m.sum(1)).mean()
    with torch.no_grad():
        lr = log_ratio.detach()
        kl = ((lr.exp() - 1 - lr) * m).sum() / m.sum()
        frac = (((lr.exp() - 1).abs() > clip_range).float() * m).sum() / m.sum()
    return loss, {"approx_kl": kl, "clip_fraction": frac, "valid_tokens": int(m.sum().item())}
