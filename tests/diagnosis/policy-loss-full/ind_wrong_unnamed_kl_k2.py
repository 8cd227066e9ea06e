# expect:
# expect-unnamed: approx_kl reported as k2 = mean(log r ^ 2) / 2 (old CleanRL), not k3
# framework: torch
import torch


def compute_policy_loss(log_prob, old_log_prob, advantages, response_mask, clip_low=0.2, clip_high=0.2,
                        dual_clip=None, loss_agg_mode="token-mean"):
    if loss_agg_mode not in ("token-mean", "seq-mean-token-mean", "seq-mean-token-sum", "seq-mean-token-sum-norm"):
        raise ValueError(loss_agg_mode)
    if dual_clip is not None and dual_clip <= 1:
        raise ValueError("dual_clip must be > 1")
    m = response_mask
    z = torch.zeros_like(log_prob)
    log_r = torch.where(m, log_prob - old_log_prob.detach(), z)
    A = torch.where(m, advantages.detach(), z)
    r = log_r.exp()
    s1, s2 = r * A, torch.clamp(r, 1 - clip_low, 1 + clip_high) * A
    obj = torch.min(s1, s2)
    if dual_clip is not None:
        obj = torch.where(A < 0, torch.max(obj, dual_clip * A), obj)
    L = torch.where(m, -obj, z)
    n = m.sum(-1)
    if loss_agg_mode == "token-mean":
        loss = L.sum() / n.sum()
    elif loss_agg_mode == "seq-mean-token-mean":
        loss = (L.sum(-1) / n).mean()
    elif loss_agg_mode == "seq-mean-token-sum":
        loss = L.sum(-1).mean()
    else:
        loss = (L.sum(-1) / L.shape[-1]).mean()
    with torch.no_grad():
        rv, lv = r[m], log_r[m]
        stats = {"clip_frac": (s2 < s1)[m].double().mean().item(), "approx_kl": (0.5 * lv ** 2).mean().item(),
                 "ratio_min": rv.min().item(), "ratio_max": rv.max().item()}
    return loss, stats
