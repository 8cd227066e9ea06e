# expect: right
# framework: torch
# style: verl's compute_policy_loss shape: masked_mean helper, pg_losses max, k3 clamped at 10 as verl's low_var_kl
import torch


def masked_mean(values, mask, axis=None):
    s = (values * mask).sum(axis=axis) if False else torch.where(mask, values, torch.zeros_like(values)).sum(axis=axis)
    return s / mask.sum(axis=axis)


def _validate(lp, old, adv, mask, clip_range, reduction):
    if not (lp.shape == old.shape == adv.shape):
        raise ValueError("shape mismatch")
    if lp.dim() != 2 or lp.numel() == 0:
        raise ValueError("expected non-empty 2-D tensors")
    for t in (lp, old, adv):
        if not torch.isfinite(t).all():
            raise ValueError("non-finite input")
    if mask.dtype != torch.bool or mask.shape != lp.shape:
        raise ValueError("bad mask")
    if not bool(mask.any(-1).all()):
        raise ValueError("empty row")
    if not (clip_range >= 0 and clip_range < float("inf")):
        raise ValueError("bad clip_range")
    if reduction not in ("token_mean", "sequence_mean"):
        raise ValueError("bad reduction")


def compute_actor_loss(log_probs_new, log_probs_old, advantages, response_mask=None, clip_range=0.2,
                       reduction="token_mean"):
    if response_mask is None:
        response_mask = torch.ones(log_probs_new.shape, dtype=torch.bool)
    _validate(log_probs_new, log_probs_old, advantages, response_mask, clip_range, reduction)
    old = log_probs_old.detach()
    adv = advantages.detach()
    negative_approx_kl = log_probs_new - old
    negative_approx_kl = torch.where(response_mask, negative_approx_kl, torch.zeros_like(negative_approx_kl))
    ratio = torch.exp(negative_approx_kl)
    pg_losses = -adv * ratio
    pg_losses2 = -adv * torch.clamp(ratio, 1.0 - clip_range, 1.0 + clip_range)
    pg = torch.maximum(pg_losses, pg_losses2)
    if reduction == "token_mean":
        loss = masked_mean(pg, response_mask)
    else:
        loss = masked_mean(pg, response_mask, axis=-1).mean()
    with torch.no_grad():
        kl = (ratio - 1) - negative_approx_kl
        kl = torch.clamp(kl, min=-10, max=10)
        approx_kl = masked_mean(kl, response_mask).item()
        clipped = (ratio - 1).abs() > clip_range
        clip_fraction = masked_mean(clipped.to(ratio.dtype), response_mask).item()
    return loss, {"approx_kl": approx_kl, "clip_fraction": clip_fraction,
                  "valid_tokens": int(response_mask.sum().item())}
