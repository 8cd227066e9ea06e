# expect: grad-into-old-logp grad-into-advantages
# framework: torch
# style: nothing detached, boolean indexing
import math

import torch


def compute_actor_loss(log_probs_new, log_probs_old, advantages, response_mask=None, clip_range=0.2,
                       reduction="token_mean"):
    if not (log_probs_new.shape == log_probs_old.shape == advantages.shape):
        raise ValueError("shapes")
    if log_probs_new.dim() != 2 or log_probs_new.numel() == 0:
        raise ValueError("2-D")
    if any(not torch.isfinite(t).all() for t in (log_probs_new, log_probs_old, advantages)):
        raise ValueError("finite")
    if response_mask is None:
        response_mask = torch.ones(log_probs_new.shape, dtype=torch.bool)
    if response_mask.dtype != torch.bool or response_mask.shape != log_probs_new.shape:
        raise ValueError("mask")
    if not response_mask.any(1).all():
        raise ValueError("empty row")
    if not math.isfinite(clip_range) or clip_range < 0:
        raise ValueError("clip_range")
    if reduction not in ("token_mean", "sequence_mean"):
        raise ValueError("reduction")
    m = response_mask
    rows = []
    for b in range(m.shape[0]):
        lr = log_probs_new[b][m[b]] - log_probs_old[b][m[b]]
        r = lr.exp()
        a = advantages[b][m[b]]
        rows.append(-torch.min(r * a, r.clamp(1 - clip_range, 1 + clip_range) * a))
    if reduction == "token_mean":
        loss = torch.cat(rows).mean()
    else:
        loss = torch.stack([x.mean() for x in rows]).mean()
    with torch.no_grad():
        lr = (log_probs_new - log_probs_old)[m]
        r = lr.exp()
        kl = ((r - 1) - lr).mean().item()
        cf = ((r - 1).abs() > clip_range).float().mean().item()
    return loss, {"approx_kl": kl, "clip_fraction": cf, "valid_tokens": int(m.sum())}
