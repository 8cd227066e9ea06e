# expect: right
# framework: torch
# style: everything on the flat vector of valid tokens, index_add for rows
import torch


def compute_policy_loss(log_prob, old_log_prob, advantages, response_mask, clip_low=0.2, clip_high=0.2,
                        dual_clip=None, loss_agg_mode="token-mean"):
    modes = ("token-mean", "seq-mean-token-mean", "seq-mean-token-sum", "seq-mean-token-sum-norm")
    if loss_agg_mode not in modes:
        raise ValueError(loss_agg_mode)
    if dual_clip is not None and dual_clip <= 1:
        raise ValueError("dual_clip")
    B, T = response_mask.shape
    rows = torch.arange(B).unsqueeze(1).expand(B, T)[response_mask]
    lr = log_prob[response_mask] - old_log_prob.detach()[response_mask]
    a = advantages.detach()[response_mask]
    r = lr.exp()
    clipped = r.clamp(1 - clip_low, 1 + clip_high) * a
    obj = torch.minimum(r * a, clipped)
    if dual_clip is not None:
        obj = torch.where(a < 0, torch.maximum(obj, a * dual_clip), obj)
    per_row = torch.zeros(B, dtype=obj.dtype).index_add(0, rows, -obj)
    counts = response_mask.sum(1)
    if loss_agg_mode == "token-mean":
        loss = -obj.mean()
    elif loss_agg_mode == "seq-mean-token-mean":
        loss = (per_row / counts).mean()
    elif loss_agg_mode == "seq-mean-token-sum":
        loss = per_row.mean()
    else:
        loss = (per_row / T).mean()
    with torch.no_grad():
        stats = {"clip_frac": float((clipped < r * a).double().mean()), "approx_kl": float((r - 1 - lr).mean()),
                 "ratio_min": float(r.min()), "ratio_max": float(r.max())}
    return loss, stats
