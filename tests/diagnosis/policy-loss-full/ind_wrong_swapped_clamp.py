# expect: policy-clip-bounds-swapped
# framework: torch
# style: clamp(ratio, 1 - clip_high, 1 + clip_low)
import torch


def compute_policy_loss(log_prob, old_log_prob, advantages, response_mask, clip_low=0.2, clip_high=0.2,
                        dual_clip=None, loss_agg_mode="token-mean"):
    if loss_agg_mode not in ("token-mean", "seq-mean-token-mean", "seq-mean-token-sum", "seq-mean-token-sum-norm"):
        raise ValueError(loss_agg_mode)
    if dual_clip is not None and dual_clip <= 1:
        raise ValueError("dual_clip")
    m = response_mask
    z = torch.zeros_like(log_prob)
    log_r = torch.where(m, log_prob - old_log_prob.detach(), z)
    A = torch.where(m, advantages.detach(), z)
    r = log_r.exp()
    r_c = torch.clamp(r, 1 - clip_high, 1 + clip_low)
    s1, s2 = r * A, r_c * A
    obj = torch.min(s1, s2)
    if dual_clip is not None:
        obj = torch.where(A < 0, torch.max(obj, dual_clip * A), obj)
    L = torch.where(m, -obj, z)
    n = m.sum(-1)
    loss = {"token-mean": L.sum() / n.sum(), "seq-mean-token-mean": (L.sum(-1) / n).mean(),
            "seq-mean-token-sum": L.sum(-1).mean(), "seq-mean-token-sum-norm": (L.sum(-1) / L.shape[-1]).mean()}[loss_agg_mode]
    with torch.no_grad():
        rv = r[m]
        stats = {"clip_frac": (s2 < s1)[m].double().mean().item(), "approx_kl": (rv - 1 - log_r[m]).mean().item(),
                 "ratio_min": rv.min().item(), "ratio_max": rv.max().item()}
    return loss, stats
