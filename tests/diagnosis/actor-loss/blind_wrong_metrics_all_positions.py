# expect: metrics-include-padding
# framework: torch
# style: metrics from the whole padded tensor after zero-filling the log-ratio
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
    lr = torch.where(mask, log_probs_new - log_probs_old.detach(), zero)
    ratio = lr.exp()
    a = advantages.detach()
    obj = torch.where(mask, torch.min(ratio * a, ratio.clamp(1 - clip_range, 1 + clip_range) * a), zero)
    if reduction == "token_mean":
        loss = -obj.sum() / mask.sum()
    else:
        loss = -(obj.sum(-1) / mask.sum(-1)).mean()
    with torch.no_grad():
        approx_kl = ((ratio - 1) - lr).mean().item()
        clip_fraction = ((ratio - 1).abs() > clip_range).float().mean().item()
    return loss, {"approx_kl": approx_kl, "clip_fraction": clip_fraction, "valid_tokens": int(mask.sum())}
