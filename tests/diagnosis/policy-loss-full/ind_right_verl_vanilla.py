# expect: right
# framework: torch
# style: verl compute_policy_loss_vanilla in loss space (pg_losses1/2/3), padding replaced first
import torch


def _masked_mean(x, mask):
    return torch.where(mask, x, torch.zeros_like(x)).sum() / mask.sum()


def _agg_loss(loss_mat, mask, mode):
    x = torch.where(mask, loss_mat, torch.zeros_like(loss_mat))
    if mode == "token-mean":
        return x.sum() / mask.sum()
    if mode == "seq-mean-token-mean":
        return (x.sum(-1) / mask.sum(-1)).mean()
    if mode == "seq-mean-token-sum":
        return x.sum(-1).mean()
    if mode == "seq-mean-token-sum-norm":
        return (x.sum(-1) / loss_mat.shape[-1]).mean()
    raise ValueError(f"Invalid loss_agg_mode: {mode}")


def compute_policy_loss(log_prob, old_log_prob, advantages, response_mask, clip_low=0.2, clip_high=0.2,
                        dual_clip=None, loss_agg_mode="token-mean"):
    if loss_agg_mode not in ("token-mean", "seq-mean-token-mean", "seq-mean-token-sum", "seq-mean-token-sum-norm"):
        raise ValueError(f"Invalid loss_agg_mode: {loss_agg_mode}")
    if dual_clip is not None and not dual_clip > 1.0:
        raise ValueError(f"dual_clip must be > 1, got {dual_clip}")
    m = response_mask
    zero = torch.zeros_like(log_prob)
    lp = torch.where(m, log_prob, zero)
    old = torch.where(m, old_log_prob.detach(), zero)
    adv = torch.where(m, advantages.detach(), zero)
    negative_approx_kl = lp - old
    ratio = torch.exp(negative_approx_kl)
    pg_losses1 = -adv * ratio
    pg_losses2 = -adv * torch.clamp(ratio, 1 - clip_low, 1 + clip_high)
    clip_pg_losses1 = torch.maximum(pg_losses1, pg_losses2)
    pg_clipfrac = _masked_mean(torch.gt(pg_losses2, pg_losses1).to(lp.dtype), m)
    if dual_clip is not None:
        pg_losses3 = -adv * dual_clip
        clip_pg_losses2 = torch.min(pg_losses3, clip_pg_losses1)
        pg_losses = torch.where(adv < 0, clip_pg_losses2, clip_pg_losses1)
    else:
        pg_losses = clip_pg_losses1
    loss = _agg_loss(pg_losses, m, loss_agg_mode)
    with torch.no_grad():
        r = ratio.detach()
        k3 = (r - 1) - negative_approx_kl.detach()
        stats = {
            "clip_frac": pg_clipfrac.item(),
            "approx_kl": _masked_mean(k3, m).item(),
            "ratio_min": r[m].min().item(),
            "ratio_max": r[m].max().item(),
        }
    return loss, stats
