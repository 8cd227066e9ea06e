# expect: ratio-inverted
# framework: torch
# style: log-ratio written old minus new everywhere
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

    log_ratio = torch.where(mask, log_probs_old.detach() - log_probs_new, torch.zeros_like(log_probs_new))
    ratio = log_ratio.exp()
    adv = advantages.detach()
    per_tok = -torch.min(ratio * adv, ratio.clamp(1 - clip_range, 1 + clip_range) * adv)
    per_tok = torch.where(mask, per_tok, torch.zeros_like(per_tok))
    if reduction == "token_mean":
        loss = per_tok.sum() / mask.sum()
    else:
        loss = (per_tok.sum(-1) / mask.sum(-1)).mean()
    with torch.no_grad():
        approx_kl = ((ratio - 1) - log_ratio)[mask].mean().item()
        clip_fraction = ((ratio - 1).abs() > clip_range)[mask].float().mean().item()
    return loss, {"approx_kl": approx_kl, "clip_fraction": clip_fraction, "valid_tokens": int(mask.sum())}
