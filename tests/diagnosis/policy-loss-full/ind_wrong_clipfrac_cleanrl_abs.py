# expect: clip-fraction-outside-band
# framework: torch
# style: CleanRL-style clipfracs, with the asymmetric band: ratio != clamped ratio
import torch


def compute_policy_loss(log_prob, old_log_prob, advantages, response_mask, clip_low=0.2, clip_high=0.2,
                        dual_clip=None, loss_agg_mode="token-mean"):
    if loss_agg_mode not in ("token-mean", "seq-mean-token-mean", "seq-mean-token-sum", "seq-mean-token-sum-norm"):
        raise ValueError(loss_agg_mode)
    if dual_clip is not None and dual_clip <= 1:
        raise ValueError("dual_clip")
    mask = response_mask
    lp = log_prob.masked_fill(~mask, 0.0)
    old = old_log_prob.detach().masked_fill(~mask, 0.0)
    adv = advantages.detach().masked_fill(~mask, 0.0)
    logratio = lp - old
    ratio = logratio.exp()
    clipped_ratio = torch.clamp(ratio, 1 - clip_low, 1 + clip_high)
    pg_loss1 = -adv * ratio
    pg_loss2 = -adv * clipped_ratio
    pg = torch.max(pg_loss1, pg_loss2)
    if dual_clip is not None:
        pg = torch.where(adv < 0, torch.min(pg, -dual_clip * adv), pg)
    pg = pg.masked_fill(~mask, 0.0)
    n = mask.sum(-1)
    if loss_agg_mode == "token-mean":
        loss = pg.sum() / n.sum()
    elif loss_agg_mode == "seq-mean-token-mean":
        loss = (pg.sum(-1) / n).mean()
    elif loss_agg_mode == "seq-mean-token-sum":
        loss = pg.sum(-1).mean()
    else:
        loss = (pg.sum(-1) / pg.shape[-1]).mean()
    with torch.no_grad():
        r = ratio[mask]
        clipfrac = (clipped_ratio[mask] != r).float().mean().item()
        stats = {"clip_frac": clipfrac, "approx_kl": ((r - 1) - logratio[mask]).mean().item(),
                 "ratio_min": r.min().item(), "ratio_max": r.max().item()}
    return loss, stats
