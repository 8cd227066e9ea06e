# expect: policy-dual-clip-as-min
# framework: torch
# style: verl loss space with the outer min written as a max
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
    adv = advantages.detach().masked_fill(~m, 0.0)
    ratio = torch.exp(lp - old)
    pg_losses1 = -adv * ratio
    pg_losses2 = -adv * torch.clamp(ratio, 1 - clip_low, 1 + clip_high)
    clip_pg_losses1 = torch.maximum(pg_losses1, pg_losses2)
    if dual_clip is not None:
        pg_losses3 = -adv * dual_clip
        clip_pg_losses2 = torch.maximum(pg_losses3, clip_pg_losses1)
        pg_losses = torch.where(adv < 0, clip_pg_losses2, clip_pg_losses1)
    else:
        pg_losses = clip_pg_losses1
    pg_losses = pg_losses.masked_fill(~m, 0.0)
    n = m.sum(-1)
    if loss_agg_mode == "token-mean":
        loss = pg_losses.sum() / n.sum()
    elif loss_agg_mode == "seq-mean-token-mean":
        loss = (pg_losses.sum(-1) / n).mean()
    elif loss_agg_mode == "seq-mean-token-sum":
        loss = pg_losses.sum(-1).mean()
    else:
        loss = (pg_losses.sum(-1) / pg_losses.shape[-1]).mean()
    with torch.no_grad():
        r = ratio[m]
        stats = {"clip_frac": torch.gt(pg_losses2, pg_losses1)[m].double().mean().item(),
                 "approx_kl": (r - 1 - torch.log(r)).mean().item(),
                 "ratio_min": r.min().item(), "ratio_max": r.max().item()}
    return loss, stats
