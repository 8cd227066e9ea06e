# expect: policy-kl-k1
# framework: torch
# style: approx_kl = -mean(log r) via masked mean
import torch


def compute_policy_loss(log_prob, old_log_prob, advantages, response_mask, clip_low=0.2, clip_high=0.2,
                        dual_clip=None, loss_agg_mode="token-mean"):
    if loss_agg_mode not in ("token-mean", "seq-mean-token-mean", "seq-mean-token-sum", "seq-mean-token-sum-norm"):
        raise ValueError(loss_agg_mode)
    if dual_clip is not None and dual_clip <= 1:
        raise ValueError("dual_clip must be > 1")
    m = response_mask
    lp = log_prob.masked_fill(~m, 0.0)
    old = old_log_prob.detach().masked_fill(~m, 0.0)
    A = advantages.detach().masked_fill(~m, 0.0)
    log_ratio = lp - old
    ratio = log_ratio.exp()
    surr1 = ratio * A
    surr2 = ratio.clamp(1 - clip_low, 1 + clip_high) * A
    obj = torch.min(surr1, surr2)
    if dual_clip is not None:
        obj = torch.where(A < 0, torch.max(obj, dual_clip * A), obj)
    L = (-obj).masked_fill(~m, 0.0)
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
        fm = m.to(L.dtype)
        approx_kl = -(log_ratio * fm).sum() / fm.sum()
        r = ratio[m]
        stats = {"clip_frac": ((surr2 < surr1) & m).sum().item() / m.sum().item(), "approx_kl": approx_kl.item(),
                 "ratio_min": r.min().item(), "ratio_max": r.max().item()}
    return loss, stats
