# expect: policy-clip-bounds-swapped
# framework: torch
# style: per-sign form with the two eps exchanged (A > 0 capped at 1 + clip_low)
import torch


def compute_policy_loss(log_prob, old_log_prob, advantages, response_mask, clip_low=0.2, clip_high=0.2,
                        dual_clip=None, loss_agg_mode="token-mean"):
    if loss_agg_mode not in ("token-mean", "seq-mean-token-mean", "seq-mean-token-sum", "seq-mean-token-sum-norm"):
        raise ValueError(loss_agg_mode)
    if dual_clip is not None and dual_clip <= 1:
        raise ValueError("dual_clip")
    m = response_mask
    z = torch.zeros_like(log_prob)
    A = torch.where(m, advantages.detach(), z)
    log_r = torch.where(m, log_prob - old_log_prob.detach(), z)
    r = log_r.exp()
    pos = A >= 0
    upper, lower = 1 + clip_low, 1 - clip_high
    r_eff = torch.where(pos, torch.clamp(r, max=upper), torch.clamp(r, min=lower))
    obj = r_eff * A
    if dual_clip is not None:
        obj = torch.where(pos, obj, torch.clamp(obj, min=dual_clip * A))
    L = torch.where(m, -obj, z)
    n = m.sum(-1)
    loss = {"token-mean": L.sum() / n.sum(), "seq-mean-token-mean": (L.sum(-1) / n).mean(),
            "seq-mean-token-sum": L.sum(-1).mean(), "seq-mean-token-sum-norm": (L.sum(-1) / L.shape[-1]).mean()}[loss_agg_mode]
    with torch.no_grad():
        active = torch.where(pos, r > upper, r < lower) & (A != 0) & m
        rv = r[m]
        stats = {"clip_frac": float(active.sum()) / float(m.sum()), "approx_kl": float((rv - 1 - log_r[m]).mean()),
                 "ratio_min": float(rv.min()), "ratio_max": float(rv.max())}
    return loss, stats
