# expect: policy-kl-k1
# framework: torch
# style: verl's ppo_kl = masked_mean(-negative_approx_kl) logged as approx_kl
import torch


def masked_mean(x, mask):
    return (torch.where(mask, x, torch.zeros_like(x))).sum() / mask.sum()


def compute_policy_loss(log_prob, old_log_prob, advantages, response_mask, clip_low=0.2, clip_high=0.2,
                        dual_clip=None, loss_agg_mode="token-mean"):
    if dual_clip is not None and not dual_clip > 1.0:
        raise ValueError("dual_clip")
    if loss_agg_mode not in ("token-mean", "seq-mean-token-mean", "seq-mean-token-sum", "seq-mean-token-sum-norm"):
        raise ValueError(loss_agg_mode)
    mask = response_mask
    negative_approx_kl = torch.where(mask, log_prob - old_log_prob.detach(), torch.zeros_like(log_prob))
    ratio = torch.exp(negative_approx_kl)
    ppo_kl = masked_mean(-negative_approx_kl, mask)
    A = torch.where(mask, advantages.detach(), torch.zeros_like(log_prob))
    pg1 = -A * ratio
    pg2 = -A * torch.clamp(ratio, 1 - clip_low, 1 + clip_high)
    pg = torch.maximum(pg1, pg2)
    clipfrac = masked_mean((pg2 > pg1).to(log_prob.dtype), mask)
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
    r = ratio.detach()[mask]
    return loss, {"clip_frac": clipfrac.item(), "approx_kl": ppo_kl.item(), "ratio_min": r.min().item(),
                  "ratio_max": r.max().item()}
