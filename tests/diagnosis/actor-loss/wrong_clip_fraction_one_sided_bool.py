# expect: clip-fraction-one-sided
# framework: torch
# style: boolean indexing, per-row list then stack; counts ratio - 1 > eps only
import math

import torch

REDUCTIONS = ("token_mean", "sequence_mean")


def _check_inputs(lp_new, lp_old, adv, mask, clip_range, reduction):
    if lp_new.shape != lp_old.shape or lp_new.shape != adv.shape:
        raise ValueError(f"shape mismatch: {tuple(lp_new.shape)}, {tuple(lp_old.shape)}, {tuple(adv.shape)}")
    if lp_new.ndim != 2 or lp_new.shape[0] == 0 or lp_new.shape[1] == 0:
        raise ValueError("inputs must be non-empty 2-D tensors")
    if any(bool(torch.isnan(t).any() or torch.isinf(t).any()) for t in (lp_new, lp_old, adv)):
        raise ValueError("inputs contain NaN or inf")
    if mask is not None:
        if not isinstance(mask, torch.Tensor) or mask.dtype is not torch.bool:
            raise ValueError("response_mask must be a bool tensor")
        if mask.shape != lp_new.shape:
            raise ValueError("response_mask shape differs")
        if bool((mask.sum(dim=1) == 0).any()):
            raise ValueError("a response has no valid token")
    eps = float(clip_range)
    if math.isnan(eps) or math.isinf(eps) or eps < 0:
        raise ValueError("clip_range must be a finite non-negative number")
    if reduction not in REDUCTIONS:
        raise ValueError(f"reduction must be one of {REDUCTIONS}")


def compute_actor_loss(log_probs_new, log_probs_old, advantages, response_mask=None,
                       clip_range=0.2, reduction="token_mean"):
    _check_inputs(log_probs_new, log_probs_old, advantages, response_mask, clip_range, reduction)
    mask = response_mask if response_mask is not None else torch.ones(log_probs_new.shape, dtype=torch.bool)
    adv = advantages.detach()
    ratio = torch.exp(log_probs_new - log_probs_old.detach())
    surr = torch.min(ratio * adv, torch.clamp(ratio, 1 - clip_range, 1 + clip_range) * adv)
    per_token = -surr
    if reduction == "token_mean":
        loss = per_token[mask].mean()
    else:
        loss = torch.stack([per_token[i][mask[i]].mean() for i in range(per_token.shape[0])]).mean()
    with torch.no_grad():
        log_ratio = (log_probs_new - log_probs_old).detach()
        r = log_ratio.exp()
        approx_kl = ((r - 1) - log_ratio)[mask].mean().item()
        clip_fraction = ((r - 1) > clip_range)[mask].float().mean().item()
    return loss, {"approx_kl": approx_kl, "clip_fraction": clip_fraction, "valid_tokens": int(mask.sum())}
