# expect: policy-dual-clip-positive
# framework: torch
# style: torch.clamp(objective, min=c * A) on every token
import torch


def compute_policy_loss(log_prob, old_log_prob, advantages, response_mask, clip_low=0.2, clip_high=0.2,
                        dual_clip=None, loss_agg_mode="token-mean"):
    if loss_agg_mode not in ("token-mean", "seq-mean-token-mean", "seq-mean-token-sum", "seq-mean-token-sum-norm"):
        raise ValueError(loss_agg_mode)
    if dual_clip is not None and dual_clip <= 1:
        raise ValueError("dual_clip must be > 1")
    m = response_mask
    z = torch.zeros_like(log_prob)
    A = torch.where(m, advantages.detach(), z)
    log_r = torch.where(m, log_prob - old_log_prob.detach(), z)
    r = log_r.exp()
    obj = torch.minimum(r * A, r.clamp(1 - clip_low, 1 + clip_high) * A)
    if dual_clip is not None:
        obj = torch.clamp(obj, min=dual_clip * A)
    L = torch.where(m, -obj, z)
    rows = L.sum(-1)
    n = m.sum(-1)
    if loss_agg_mode == "token-mean":
        loss = rows.sum() / n.sum()
    elif loss_agg_mode == "seq-mean-token-mean":
        loss = (rows / n).mean()
    elif loss_agg_mode == "seq-mean-token-sum":
        loss = rows.mean()
    else:
        loss = (rows / L.shape[-1]).mean()
    with torch.no_grad():
        rv = r[m]
        active = (r.clamp(1 - clip_low, 1 + clip_high) * A < r * A)[m]
        stats = {"clip_frac": active.double().mean().item(), "approx_kl": (rv - 1 - log_r[m]).mean().item(),
                 "ratio_min": rv.min().item(), "ratio_max": rv.max().item()}
    return loss, stats
