# expect: policy-clip-bounds-swapped
# framework: torch
# style: band unpacked in the wrong order in a helper (eps_high used below 1)
import torch


def _band(clip_low, clip_high):
    return 1.0 - clip_high, 1.0 + clip_low


def compute_policy_loss(log_prob, old_log_prob, advantages, response_mask, clip_low=0.2, clip_high=0.2,
                        dual_clip=None, loss_agg_mode="token-mean"):
    if loss_agg_mode not in ("token-mean", "seq-mean-token-mean", "seq-mean-token-sum", "seq-mean-token-sum-norm"):
        raise ValueError(loss_agg_mode)
    if dual_clip is not None and dual_clip <= 1:
        raise ValueError("dual_clip")
    lo, hi = _band(clip_low, clip_high)
    m = response_mask
    lp = log_prob.masked_fill(~m, 0.0)
    old = old_log_prob.detach().masked_fill(~m, 0.0)
    A = advantages.detach().masked_fill(~m, 0.0)
    ratio = torch.exp(lp - old)
    pg1 = -A * ratio
    pg2 = -A * torch.max(torch.min(ratio, torch.full_like(ratio, hi)), torch.full_like(ratio, lo))
    pg = torch.max(pg1, pg2)
    if dual_clip is not None:
        pg = torch.where(A < 0, torch.min(pg, -dual_clip * A), pg)
    pg = pg.masked_fill(~m, 0.0)
    n = m.sum(-1)
    if loss_agg_mode == "token-mean":
        loss = pg.sum() / n.sum()
    elif loss_agg_mode == "seq-mean-token-mean":
        loss = (pg.sum(-1) / n).mean()
    elif loss_agg_mode == "seq-mean-token-sum":
        loss = pg.sum(-1).mean()
    else:
        loss = (pg.sum(-1) / pg.shape[-1]).mean()
    r = ratio.detach()[m]
    stats = {"clip_frac": (pg2 > pg1).detach()[m].float().mean().item(),
             "approx_kl": (r - 1 - (lp - old).detach()[m]).mean().item(),
             "ratio_min": r.min().item(), "ratio_max": r.max().item()}
    return loss, stats
