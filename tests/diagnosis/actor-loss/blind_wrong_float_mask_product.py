# expect: actor-mask-multiplied
# framework: torch
# style: mask cast to float and multiplied into the per-token loss (OpenRLHF's masked_mean)
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

    m = mask.float() if log_probs_new.dtype == torch.float32 else mask.double()
    ratio = torch.exp(log_probs_new - log_probs_old.detach())
    a = advantages.detach()
    loss_tok = -torch.min(ratio * a, torch.clamp(ratio, 1 - clip_range, 1 + clip_range) * a)
    if reduction == "token_mean":
        loss = (loss_tok * m).sum() / m.sum()
    else:
        loss = ((loss_tok * m).sum(-1) / m.sum(-1)).mean()
    with torch.no_grad():
        lr = log_probs_new - log_probs_old
        approx_kl = ((((ratio - 1) - lr) * m).sum() / m.sum()).item()
        clip_fraction = ((((ratio - 1).abs() > clip_range).float() * m).sum() / m.sum()).item()
    return loss, {"approx_kl": approx_kl, "clip_fraction": clip_fraction, "valid_tokens": int(m.sum())}
