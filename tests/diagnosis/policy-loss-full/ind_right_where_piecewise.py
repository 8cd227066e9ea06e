# expect: right
# framework: torch
# style: clipped ratio built piecewise with torch.where, flat valid tokens for the stats
import torch


def compute_policy_loss(log_prob, old_log_prob, advantages, response_mask, clip_low=0.2, clip_high=0.2,
                        dual_clip=None, loss_agg_mode="token-mean"):
    if loss_agg_mode not in ("token-mean", "seq-mean-token-mean", "seq-mean-token-sum", "seq-mean-token-sum-norm"):
        raise ValueError(f"unknown loss_agg_mode {loss_agg_mode}")
    if dual_clip is not None and dual_clip <= 1:
        raise ValueError("dual_clip must exceed 1")
    m = response_mask
    z = torch.zeros((), dtype=log_prob.dtype)
    lr = torch.where(m, log_prob, z) - torch.where(m, old_log_prob, z).detach()
    A = torch.where(m, advantages, z).detach()
    r = torch.exp(lr)
    lo, hi = 1.0 - clip_low, 1.0 + clip_high
    r_clip = torch.where(r > hi, torch.full_like(r, hi), torch.where(r < lo, torch.full_like(r, lo), r))
    unclipped = r * A
    clipped = r_clip * A
    obj = torch.where(clipped < unclipped, clipped, unclipped)
    if dual_clip is not None:
        floor = dual_clip * A
        obj = torch.where((A < 0) & (obj < floor), floor, obj)
    per_tok = torch.where(m, -obj, z)
    n_b = m.sum(-1)
    if loss_agg_mode == "token-mean":
        loss = per_tok.sum() / n_b.sum()
    elif loss_agg_mode == "seq-mean-token-mean":
        loss = (per_tok.sum(-1) / n_b).mean()
    elif loss_agg_mode == "seq-mean-token-sum":
        loss = per_tok.sum(-1).mean()
    else:
        loss = (per_tok.sum(-1) / per_tok.shape[-1]).mean()
    rv, lv = r.detach()[m], lr.detach()[m]
    stats = {
        "clip_frac": (clipped < unclipped).detach()[m].to(torch.float64).mean().item(),
        "approx_kl": (rv - 1 - lv).mean().item(),
        "ratio_min": rv.min().item(),
        "ratio_max": rv.max().item(),
    }
    return loss, stats
