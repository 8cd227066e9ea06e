# expect: clip-fraction-outside-band policy-kl-k1
# framework: torch
# style: SB3-like logging: |r - 1| > eps per side and approx_kl = mean(old - new)
import torch


def compute_policy_loss(log_prob, old_log_prob, advantages, response_mask, clip_low=0.2, clip_high=0.2,
                        dual_clip=None, loss_agg_mode="token-mean"):
    if loss_agg_mode not in ("token-mean", "seq-mean-token-mean", "seq-mean-token-sum", "seq-mean-token-sum-norm"):
        raise ValueError(loss_agg_mode)
    if dual_clip is not None and dual_clip <= 1:
        raise ValueError("dual_clip")
    m = response_mask
    z = torch.zeros_like(log_prob)
    new = torch.where(m, log_prob, z)
    old = torch.where(m, old_log_prob, z).detach()
    A = torch.where(m, advantages, z).detach()
    r = torch.exp(new - old)
    obj = torch.minimum(r * A, torch.clamp(r, 1 - clip_low, 1 + clip_high) * A)
    if dual_clip is not None:
        obj = torch.where(A < 0, torch.maximum(obj, dual_clip * A), obj)
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
    d = (r.detach() - 1)[m]
    out = (d > clip_high) | (-d > clip_low)
    stats = {"clip_frac": out.float().mean().item(), "approx_kl": (old - new.detach())[m].mean().item(),
             "ratio_min": r.detach()[m].min().item(), "ratio_max": r.detach()[m].max().item()}
    return loss, stats
