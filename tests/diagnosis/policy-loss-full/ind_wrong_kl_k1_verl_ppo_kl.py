# expect: policy-kl-k1
# framework: torch
# style: verl's ppo_kl = masked_mean(-negative_approx_kl) logged as approx_kl
import torch


def compute_policy_loss(log_prob, old_log_prob, advantages, response_mask, clip_low=0.2, clip_high=0.2,
                        dual_clip=None, loss_agg_mode="token-mean"):
    if loss_agg_mode not in ("token-mean", "seq-mean-token-mean", "seq-mean-token-sum", "seq-mean-token-sum-norm"):
        raise ValueError(loss_agg_mode)
    if dual_clip is not None and dual_clip <= 1:
        raise ValueError("dual_clip must be > 1")
    m = response_mask
    zero = torch.zeros_like(log_prob)
    negative_approx_kl = torch.where(m, log_prob - old_log_prob.detach(), zero)
    adv = torch.where(m, advantages.detach(), zero)
    ratio = torch.exp(negative_approx_kl)
    ppo_kl = torch.where(m, -negative_approx_kl, zero).sum() / m.sum()
    pg_losses1 = -adv * ratio
    pg_losses2 = -adv * torch.clamp(ratio, 1 - clip_low, 1 + clip_high)
    clip_pg_losses1 = torch.maximum(pg_losses1, pg_losses2)
    pg_clipfrac = torch.where(m, torch.gt(pg_losses2, pg_losses1).to(ratio.dtype), zero).sum() / m.sum()
    if dual_clip is not None:
        pg_losses = torch.where(adv < 0, torch.min(-adv * dual_clip, clip_pg_losses1), clip_pg_losses1)
    else:
        pg_losses = clip_pg_losses1
    pg_losses = torch.where(m, pg_losses, zero)
    n = m.sum(-1)
    if loss_agg_mode == "token-mean":
        loss = pg_losses.sum() / n.sum()
    elif loss_agg_mode == "seq-mean-token-mean":
        loss = (pg_losses.sum(-1) / n).mean()
    elif loss_agg_mode == "seq-mean-token-sum":
        loss = pg_losses.sum(-1).mean()
    else:
        loss = (pg_losses.sum(-1) / pg_losses.shape[-1]).mean()
    r = ratio.detach()[m]
    return loss, {"clip_frac": pg_clipfrac.item(), "approx_kl": ppo_kl.item(),
                  "ratio_min": r.min().item(), "ratio_max": r.max().item()}
