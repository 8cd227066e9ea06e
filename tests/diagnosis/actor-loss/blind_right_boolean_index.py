# expect: right
# framework: torch
# style: boolean indexing for both reductions, per-row loop for sequence_mean, metrics from the valid tokens only
import math

import torch


def compute_actor_loss(log_probs_new, log_probs_old, advantages, response_mask=None, clip_range=0.2,
                       reduction="token_mean"):
    tensors = (log_probs_new, log_probs_old, advantages)
    if len({tuple(t.shape) for t in tensors}) != 1:
        raise ValueError("shapes differ")
    if log_probs_new.ndim != 2 or 0 in log_probs_new.shape:
        raise ValueError("need a non-empty 2-D batch")
    if any(not torch.isfinite(t).all() for t in tensors):
        raise ValueError("non-finite values")
    if response_mask is None:
        response_mask = torch.ones(log_probs_new.shape, dtype=torch.bool)
    elif not isinstance(response_mask, torch.Tensor) or response_mask.dtype != torch.bool \
            or response_mask.shape != log_probs_new.shape:
        raise ValueError("mask must be bool and shaped like the inputs")
    if not response_mask.any(dim=1).all():
        raise ValueError("row without valid tokens")
    if not math.isfinite(float(clip_range)) or clip_range < 0:
        raise ValueError("clip_range")
    if reduction not in {"token_mean", "sequence_mean"}:
        raise ValueError("reduction")

    B = log_probs_new.shape[0]
    if reduction == "token_mean":
        lr = log_probs_new[response_mask] - log_probs_old.detach()[response_mask]
        r = lr.exp()
        a = advantages.detach()[response_mask]
        obj = torch.min(r * a, r.clamp(1 - clip_range, 1 + clip_range) * a)
        loss = -obj.mean()
    else:
        per_row = []
        for b in range(B):
            m = response_mask[b]
            lr = log_probs_new[b][m] - log_probs_old[b][m].detach()
            r = lr.exp()
            a = advantages[b][m].detach()
            obj = torch.min(r * a, r.clamp(1 - clip_range, 1 + clip_range) * a)
            per_row.append(-obj.mean())
        loss = torch.stack(per_row).mean()
    with torch.no_grad():
        lr = (log_probs_new - log_probs_old)[response_mask]
        r = lr.exp()
        approx_kl = ((r - 1) - lr).mean().item()
        clip_fraction = ((r - 1).abs() > clip_range).double().mean().item()
    return loss, {"approx_kl": approx_kl, "clip_fraction": clip_fraction,
                  "valid_tokens": int(response_mask.sum())}
