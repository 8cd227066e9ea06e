# expect: right
# framework: torch
# style: verl's compute_policy_loss_vanilla (pg_losses, clip_pg_losses1/2, torch.where on A < 0)
import torch


MODES = ("token-mean", "seq-mean-token-mean", "seq-mean-token-sum", "seq-mean-token-sum-norm")


def _agg(loss_mat, mask, mode):
    x = torch.where(mask, loss_mat, torch.zeros((), dtype=loss_mat.dtype))
    if mode == "token-mean":
        return x.sum() / mask.sum()
    seq = x.sum(-1)
    if mode == "seq-mean-token-mean":
        return (seq / mask.sum(-1)).mean()
    if mode == "seq-mean-token-sum":
        return seq.mean()
    return (seq / loss_mat.shape[-1]).mean()


def compute_policy_loss(log_prob, old_log_prob, advantages, response_mask, clip_low=0.2,
                        clip_high=0.2, dual_clip=None, loss_agg_mode="token-mean"):
    if loss_agg_mode not in MODES:
        raise ValueError(f"unknown loss_agg_mode {loss_agg_mode}")
    if dual_clip is not None and not dual_clip > 1:
        raise ValueError("dual_clip must be > 1")
    mask = response_mask
    zero = torch.zeros((), dtype=log_prob.dtype)

    old = torch.where(mask, old_log_prob.detach(), zero)
    lp = torch.where(mask, log_prob, zero)
    adv = torch.where(mask, advantages.detach(), zero)
    negative_approx_kl = lp - old
    log_ratio = negative_approx_kl
    ratio = torch.exp(negative_approx_kl)
    pg_losses1 = -adv * ratio
    pg_losses2 = -adv * torch.clamp(ratio, 1 - clip_low, 1 + clip_high)
    clip_pg_losses1 = torch.maximum(pg_losses1, pg_losses2)
    pg_losses, pg_losses2_ = pg_losses1, pg_losses2
    if dual_clip is not None:
        pg_losses3 = -adv * dual_clip
        clip_pg_losses2 = torch.min(pg_losses3, clip_pg_losses1)
        final = torch.where(adv < 0, clip_pg_losses2, clip_pg_losses1)
    else:
        final = clip_pg_losses1
    loss = _agg(final, mask, loss_agg_mode)
    pg_losses2 = pg_losses2_

    with torch.no_grad():
        r = ratio.detach()[mask]
        lr = log_ratio.detach()[mask]
        stats = {"clip_frac": torch.gt(pg_losses2, pg_losses)[mask].double().mean().item(),
                 "approx_kl": ((r - 1) - lr).mean().item(),
                 "ratio_min": r.min().item(), "ratio_max": r.max().item()}
    return loss, stats
