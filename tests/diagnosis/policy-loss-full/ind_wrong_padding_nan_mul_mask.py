# expect: policy-padding-nan
# framework: torch
# style: per-token loss multiplied by the float mask
import torch


def compute_policy_loss(log_prob, old_log_prob, advantages, response_mask, clip_low=0.2, clip_high=0.2,
                        dual_clip=None, loss_agg_mode="token-mean"):
    if loss_agg_mode not in ("token-mean", "seq-mean-token-mean", "seq-mean-token-sum", "seq-mean-token-sum-norm"):
        raise ValueError(loss_agg_mode)
    if dual_clip is not None and dual_clip <= 1:
        raise ValueError("dual_clip must be > 1")
    m = response_mask
    fm = m.to(log_prob.dtype)
    A = advantages.detach()
    log_r = log_prob - old_log_prob.detach()
    ratio = log_r.exp()
    pg1 = -A * ratio
    pg2 = -A * ratio.clamp(1 - clip_low, 1 + clip_high)
    pg = torch.max(pg1, pg2)
    if dual_clip is not None:
        pg = torch.where(A < 0, torch.min(pg, -dual_clip * A), pg)
    pg = pg * fm
    n = fm.sum(-1)
    if loss_agg_mode == "token-mean":
        loss = pg.sum() / n.sum()
    elif loss_agg_mode == "seq-mean-token-mean":
        loss = (pg.sum(-1) / n).mean()
    elif loss_agg_mode == "seq-mean-token-sum":
        loss = pg.sum(-1).mean()
    else:
        loss = (pg.sum(-1) / pg.shape[-1]).mean()
    with torch.no_grad():
        r = ratio[m]
        stats = {"clip_frac": (pg2 > pg1)[m].double().mean().item(), "approx_kl": (r - 1 - log_r[m]).mean().item(),
                 "ratio_min": r.min().item(), "ratio_max": r.max().item()}
    return loss, stats
