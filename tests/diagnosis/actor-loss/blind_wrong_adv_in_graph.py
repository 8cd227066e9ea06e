# expect: grad-into-advantages
# framework: torch
# style: torch.where masking; advantages used as they arrive
import math

import torch


def _check_inputs(lp, old, adv, mask, clip_range, reduction):
    if not (lp.shape == old.shape == adv.shape):
        raise ValueError("shapes differ")
    if lp.dim() != 2 or lp.numel() == 0:
        raise ValueError("need non-empty 2-D tensors")
    for t in (lp, old, adv):
        if not torch.isfinite(t).all():
            raise ValueError("NaN or inf in the inputs")
    if not isinstance(mask, torch.Tensor) or mask.dtype != torch.bool or mask.shape != lp.shape:
        raise ValueError("response_mask must be bool, shaped like the inputs")
    if not mask.any(dim=-1).all():
        raise ValueError("a row has no valid token")
    if not math.isfinite(clip_range) or clip_range < 0:
        raise ValueError("clip_range must be finite and >= 0")
    if reduction not in ("token_mean", "sequence_mean"):
        raise ValueError("unknown reduction")


def compute_actor_loss(log_probs_new, log_probs_old, advantages, response_mask=None, clip_range=0.2,
                       reduction="token_mean"):
    if response_mask is None:
        response_mask = torch.ones_like(log_probs_new, dtype=torch.bool)
    _check_inputs(log_probs_new, log_probs_old, advantages, response_mask, clip_range, reduction)
    mask = response_mask

    zero = torch.zeros((), dtype=log_probs_new.dtype)
    log_ratio = torch.where(mask, log_probs_new - log_probs_old.detach(), zero)
    ratio = torch.exp(log_ratio)
    surr = torch.minimum(ratio * advantages, torch.clamp(ratio, 1 - clip_range, 1 + clip_range) * advantages)
    surr = torch.where(mask, surr, zero)
    if reduction == "token_mean":
        loss = -surr.sum() / mask.sum()
    else:
        loss = -(surr.sum(dim=1) / mask.sum(dim=1)).mean()
    lr = log_ratio.detach()
    r = ratio.detach()
    approx_kl = float(torch.where(mask, (r - 1) - lr, zero).sum() / mask.sum())
    clip_fraction = float(((r - 1).abs() > clip_range)[mask].double().mean())
    return loss, {"approx_kl": approx_kl, "clip_fraction": clip_fraction, "valid_tokens": int(mask.sum())}
