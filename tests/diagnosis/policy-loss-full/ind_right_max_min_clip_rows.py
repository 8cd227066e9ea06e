# expect: right
# framework: torch
# style: torch.max(torch.min(r, hi), lo) clipping (TRL), sequence reductions row by row, lists then stack
import torch


def compute_policy_loss(log_prob, old_log_prob, advantages, response_mask, clip_low=0.2, clip_high=0.2,
                        dual_clip=None, loss_agg_mode="token-mean"):
    if loss_agg_mode not in ("token-mean", "seq-mean-token-mean", "seq-mean-token-sum", "seq-mean-token-sum-norm"):
        raise ValueError(loss_agg_mode)
    if dual_clip is not None and dual_clip <= 1:
        raise ValueError("dual_clip")
    m = response_mask
    zeros = torch.zeros_like(log_prob)
    lp = torch.where(m, log_prob, zeros)
    old = torch.where(m, old_log_prob, zeros).detach()
    A = torch.where(m, advantages, zeros).detach()
    ratio = torch.exp(lp - old)
    hi = torch.full_like(ratio, 1 + clip_high)
    lo = torch.full_like(ratio, 1 - clip_low)
    clipped_ratio = torch.max(torch.min(ratio, hi), lo)
    pg1 = -A * ratio
    pg2 = -A * clipped_ratio
    pg = torch.max(pg1, pg2)
    if dual_clip is not None:
        pg = torch.where(A < 0, torch.min(pg, -dual_clip * A), pg)
    T = log_prob.shape[-1]
    if loss_agg_mode == "token-mean":
        loss = torch.where(m, pg, zeros).sum() / m.sum()
    else:
        rows = []
        for b in range(pg.shape[0]):
            s = pg[b][m[b]].sum()
            if loss_agg_mode == "seq-mean-token-mean":
                rows.append(s / m[b].sum())
            elif loss_agg_mode == "seq-mean-token-sum":
                rows.append(s)
            else:
                rows.append(s / T)
        loss = torch.stack(rows).mean()
    r = ratio.detach()[m]
    stats = {
        "clip_frac": float((pg2 > pg1).detach()[m].float().mean()),
        "approx_kl": float(((r - 1) - torch.log(r)).mean()),
        "ratio_min": float(r.min()),
        "ratio_max": float(r.max()),
    }
    return loss, stats
