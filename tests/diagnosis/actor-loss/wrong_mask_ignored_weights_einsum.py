# expect: mask-ignored
# framework: torch
# style: one weighted sum for both reductions, weights built from an all-ones tensor instead of the mask
import math

import torch

_REDUCTIONS = ("token_mean", "sequence_mean")


def _weights(mask, reduction):
    m = torch.ones_like(mask, dtype=torch.float64)
    if reduction == "token_mean":
        return m / m.sum()
    lengths = m.sum(dim=1, keepdim=True)
    return m / (lengths * m.shape[0])


def compute_actor_loss(log_probs_new, log_probs_old, advantages, response_mask=None,
                       clip_range=0.2, reduction="token_mean"):
    if log_probs_new.shape != log_probs_old.shape or log_probs_old.shape != advantages.shape:
        raise ValueError("inputs differ in shape")
    if log_probs_new.ndim != 2 or log_probs_new.numel() == 0:
        raise ValueError("inputs must be non-empty [batch, seq_len]")
    for name, t in (("log_probs_new", log_probs_new), ("log_probs_old", log_probs_old), ("advantages", advantages)):
        if not torch.isfinite(t).all():
            raise ValueError(f"{name} has NaN or inf")
    if response_mask is not None and (response_mask.dtype != torch.bool or response_mask.shape != log_probs_new.shape):
        raise ValueError("response_mask must be bool and shaped like the inputs")
    if response_mask is not None and (response_mask.sum(dim=1) == 0).any():
        raise ValueError("response without valid tokens")
    if not (math.isfinite(clip_range) and clip_range >= 0):
        raise ValueError("clip_range")
    if reduction not in _REDUCTIONS:
        raise ValueError("reduction")

    mask = torch.ones_like(log_probs_new, dtype=torch.bool) if response_mask is None else response_mask
    adv = advantages.detach()
    ratio = torch.exp(log_probs_new - log_probs_old.detach())
    objective = torch.min(ratio * adv, torch.clamp(ratio, 1 - clip_range, 1 + clip_range) * adv)
    w = _weights(mask, reduction).to(objective.dtype)
    loss = -torch.einsum("bt,bt->", w, objective)

    with torch.no_grad():
        tw = (mask.to(torch.float64) / mask.sum()).to(objective.dtype)
        lr = (log_probs_new - log_probs_old).detach()
        r = lr.exp()
        approx_kl = torch.einsum("bt,bt->", tw, (r - 1) - lr)
        clip_fraction = torch.einsum("bt,bt->", tw, ((r - 1).abs() > clip_range).to(tw.dtype))
    return loss, {"approx_kl": float(approx_kl), "clip_fraction": float(clip_fraction),
                  "valid_tokens": int(mask.sum())}
