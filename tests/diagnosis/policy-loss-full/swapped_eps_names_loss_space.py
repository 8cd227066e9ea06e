# expect: policy-clip-bounds-swapped
# framework: torch
# style: verl loss space with cliprange_low / cliprange_high read the other way round
import torch


def compute_policy_loss(log_prob, old_log_prob, advantages, response_mask, clip_low=0.2, clip_high=0.2,
                        dual_clip=None, loss_agg_mode="token-mean"):
    if dual_clip is not None and dual_clip <= 1.0:
        raise ValueError("dual_clip must be > 1")
    if loss_agg_mode not in ("token-mean", "seq-mean-token-mean", "seq-mean-token-sum", "seq-mean-token-sum-norm"):
        raise ValueError(loss_agg_mode)
    mask = response_mask
    cliprange_low, cliprange_high = clip_high, clip_low
    nkl = torch.where(mask, log_prob - old_log_prob.detach(), torch.zeros_like(log_prob))
    A = torch.where(mask, advantages.detach(), torch.zeros_like(log_prob))
    ratio = torch.exp(nkl)
    pg1 = -A * ratio
    pg2 = -A * torch.clamp(ratio, 1 - cliprange_low, 1 + cliprange_high)
    pg = torch.maximum(pg1, pg2)
    clipfrac = (pg2 > pg1)[mask].double().mean()
    if dual_clip is not None:
        pg = torch.where(A < 0, torch.minimum(pg, -A * dual_clip), pg)
    seq = pg.sum(-1)
    if loss_agg_mode == "token-mean":
        loss = seq.sum() / mask.sum()
    elif loss_agg_mode == "seq-mean-token-mean":
        loss = (seq / mask.sum(-1)).mean()
    elif loss_agg_mode == "seq-mean-token-sum":
        loss = seq.mean()
    else:
        loss = (seq / mask.shape[-1]).mean()
    v = ratio.detach()[mask]
    return loss, {"clip_frac": clipfrac.item(), "approx_kl": (v - 1 - nkl.detach()[mask]).mean().item(),
                  "ratio_min": v.min().item(), "ratio_max": v.max().item()}
