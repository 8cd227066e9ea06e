# expect: clip-fraction-outside-band
# framework: torch
# style: clip_frac as (r > 1 + high) | (r < 1 - low) over valid tokens
import torch


def compute_policy_loss(log_prob, old_log_prob, advantages, response_mask, clip_low=0.2, clip_high=0.2,
                        dual_clip=None, loss_agg_mode="token-mean"):
    if loss_agg_mode not in ("token-mean", "seq-mean-token-mean", "seq-mean-token-sum", "seq-mean-token-sum-norm"):
        raise ValueError(loss_agg_mode)
    if dual_clip is not None and dual_clip <= 1:
        raise ValueError("dual_clip")
    m = response_mask
    z = torch.zeros_like(log_prob)
    log_r = torch.where(m, log_prob, z) - torch.where(m, old_log_prob, z).detach()
    A = torch.where(m, advantages, z).detach()
    r = log_r.exp()
    obj = torch.min(r * A, r.clamp(1 - clip_low, 1 + clip_high) * A)
    if dual_clip is not None:
        obj = torch.where(A < 0, torch.max(obj, dual_clip * A), obj)
    L = torch.where(m, -obj, z)
    n = m.sum(-1)
    loss = {"token-mean": L.sum() / n.sum(), "seq-mean-token-mean": (L.sum(-1) / n).mean(),
            "seq-mean-token-sum": L.sum(-1).mean(), "seq-mean-token-sum-norm": (L.sum(-1) / L.shape[-1]).mean()}[loss_agg_mode]
    rv, lv = r.detach()[m], log_r.detach()[m]
    outside = (rv > 1 + clip_high) | (rv < 1 - clip_low)
    stats = {"clip_frac": outside.double().mean().item(), "approx_kl": (rv - 1 - lv).mean().item(),
             "ratio_min": rv.min().item(), "ratio_max": rv.max().item()}
    return loss, stats
