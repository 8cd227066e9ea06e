# expect: policy-dual-clip-as-min
# framework: torch
# style: loss space, the -c A bound taken with max instead of min
import torch


def compute_policy_loss(log_prob, old_log_prob, advantages, response_mask, clip_low=0.2, clip_high=0.2,
                        dual_clip=None, loss_agg_mode="token-mean"):
    if dual_clip is not None and not dual_clip > 1:
        raise ValueError("dual_clip must be > 1")
    if loss_agg_mode not in ("token-mean", "seq-mean-token-mean", "seq-mean-token-sum", "seq-mean-token-sum-norm"):
        raise ValueError(loss_agg_mode)
    mask = response_mask
    zero = torch.zeros((), dtype=log_prob.dtype)
    log_ratio = torch.where(mask, log_prob - old_log_prob.detach(), zero)
    adv = torch.where(mask, advantages.detach(), zero)
    ratio = log_ratio.exp()
    pg1 = -adv * ratio
    pg2 = -adv * ratio.clamp(1 - clip_low, 1 + clip_high)
    pg = torch.max(pg1, pg2)
    frac = (pg2 > pg1)[mask].double().mean()
    if dual_clip is not None:
        pg = torch.where(adv < 0, torch.max(pg, -adv * dual_clip), pg)
    seq = pg.sum(dim=1)
    cnt = mask.sum(dim=1)
    if loss_agg_mode == "token-mean":
        loss = seq.sum() / cnt.sum()
    elif loss_agg_mode == "seq-mean-token-mean":
        loss = (seq / cnt).mean()
    elif loss_agg_mode == "seq-mean-token-sum":
        loss = seq.mean()
    else:
        loss = (seq / mask.shape[1]).mean()
    v = ratio.detach()[mask]
    return loss, {"clip_frac": frac.item(), "approx_kl": (v - 1 - log_ratio.detach()[mask]).mean().item(),
                  "ratio_min": v.min().item(), "ratio_max": v.max().item()}
