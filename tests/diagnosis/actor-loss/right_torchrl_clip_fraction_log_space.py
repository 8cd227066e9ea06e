# expect: right
# framework: torch
# style: TorchRL: clip fraction as mean(log_weight_clip != log_weight) over valid tokens, log-space clip,
#        bool-mask indexing, k3 from the log-weight
import math

import torch


def _check(log_probs_new, log_probs_old, advantages, response_mask, clip_range, reduction):
    shapes = {log_probs_new.shape, log_probs_old.shape, advantages.shape}
    if len(shapes) != 1:
        raise ValueError(f"shapes differ: {shapes}")
    if log_probs_new.dim() != 2 or log_probs_new.numel() == 0:
        raise ValueError("need a non-empty [batch, seq_len] batch")
    if not (torch.isfinite(log_probs_new).all() and torch.isfinite(log_probs_old).all()
            and torch.isfinite(advantages).all()):
        raise ValueError("NaN or inf in the inputs")
    if response_mask is not None:
        if response_mask.dtype is not torch.bool or response_mask.shape != log_probs_new.shape:
            raise ValueError("response_mask must be bool, same shape")
        if (~response_mask).all(dim=1).any():
            raise ValueError("a response has no valid token")
    if not math.isfinite(clip_range) or clip_range < 0:
        raise ValueError("clip_range must be finite and >= 0")
    if reduction not in ("token_mean", "sequence_mean"):
        raise ValueError(f"unknown reduction {reduction}")


def compute_actor_loss(log_probs_new, log_probs_old, advantages, response_mask=None,
                       clip_range=0.2, reduction="token_mean"):
    _check(log_probs_new, log_probs_old, advantages, response_mask, clip_range, reduction)
    mask = torch.ones_like(log_probs_new, dtype=torch.bool) if response_mask is None else response_mask
    advantage = advantages.detach()
    log_weight = log_probs_new - log_probs_old.detach()
    lo = math.log1p(-clip_range) if clip_range < 1 else -math.inf
    hi = math.log1p(clip_range)
    log_weight_clip = log_weight.clamp(lo, hi)
    gain1 = log_weight.exp() * advantage
    gain2 = log_weight_clip.exp() * advantage
    loss_objective = -torch.min(gain1, gain2)
    if reduction == "token_mean":
        loss = loss_objective[mask].mean()
    else:
        per_seq = torch.stack([row[m].mean() for row, m in zip(loss_objective, mask)])
        loss = per_seq.mean()
    with torch.no_grad():
        lw = log_weight.detach()[mask]
        clip_fraction = (log_weight_clip.detach()[mask] != lw).float().mean().item()
        approx_kl = (lw.exp() - 1 - lw).mean().item()
    return loss, {"approx_kl": approx_kl, "clip_fraction": clip_fraction, "valid_tokens": int(mask.sum())}
