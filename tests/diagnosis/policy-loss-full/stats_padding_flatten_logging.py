# expect: policy-stats-over-padding
# framework: torch
# style: loss masked, logging on flattened tensors
import torch


def compute_policy_loss(log_prob, old_log_prob, advantages, response_mask, clip_low=0.2, clip_high=0.2,
                        dual_clip=None, loss_agg_mode="token-mean"):
    if dual_clip is not None and not dual_clip > 1.0:
        raise ValueError("dual_clip")
    if loss_agg_mode not in {"token-mean", "seq-mean-token-mean", "seq-mean-token-sum", "seq-mean-token-sum-norm"}:
        raise ValueError(loss_agg_mode)
    mask = response_mask
    log_ratio = (log_prob - old_log_prob.detach()).masked_fill(~mask, 0.0)
    adv = advantages.detach().masked_fill(~mask, 0.0)
    ratio = log_ratio.exp()
    pg1 = -adv * ratio
    pg2 = -adv * ratio.clamp(1 - clip_low, 1 + clip_high)
    pg = torch.max(pg1, pg2)
    if dual_clip is not None:
        pg = torch.where(adv < 0, torch.min(pg, -adv * dual_clip), pg)
    seq = pg.sum(1)
    lens = mask.sum(1)
    if loss_agg_mode == "token-mean":
        loss = seq.sum() / lens.sum()
    elif loss_agg_mode == "seq-mean-token-mean":
        loss = (seq / lens).mean()
    elif loss_agg_mode == "seq-mean-token-sum":
        loss = seq.mean()
    else:
        loss = (seq / mask.shape[1]).mean()
    flat_ratio = ratio.detach().flatten()
    flat_lr = log_ratio.detach().flatten()
    stats = {
        "clip_frac": (pg2 > pg1).flatten().double().mean().item(),
        "approx_kl": (flat_ratio - 1 - flat_lr).mean().item(),
        "ratio_min": flat_ratio.min().item(),
        "ratio_max": flat_ratio.max().item(),
    }
    return loss, stats
