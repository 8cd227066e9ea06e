# expect: ratio-division
# framework: torch
# style: padding replaced first, then the ratio as a quotient of probabilities
import torch

MODES = ("token-mean", "seq-mean-token-mean", "seq-mean-token-sum", "seq-mean-token-sum-norm")


def compute_policy_loss(log_prob, old_log_prob, advantages, response_mask, clip_low=0.2,
                        clip_high=0.2, dual_clip=None, loss_agg_mode="token-mean"):
    if loss_agg_mode not in MODES:
        raise ValueError(f"unknown loss_agg_mode {loss_agg_mode}")
    if dual_clip is not None and not dual_clip > 1:
        raise ValueError("dual_clip must be > 1")
    mask = response_mask
    zero = torch.zeros((), dtype=log_prob.dtype)
    new = torch.where(mask, log_prob, zero)
    old = torch.where(mask, old_log_prob.detach(), zero)
    adv = torch.where(mask, advantages.detach(), zero)
    ratio = torch.exp(new) / torch.exp(old)
    surr = torch.minimum(ratio * adv, ratio.clamp(1 - clip_low, 1 + clip_high) * adv)
    if dual_clip is not None:
        surr = torch.where(adv < 0, torch.maximum(surr, dual_clip * adv), surr)
    per_tok = torch.where(mask, -surr, zero)
    if loss_agg_mode == "token-mean":
        loss = per_tok.sum() / mask.sum()
    elif loss_agg_mode == "seq-mean-token-mean":
        loss = (per_tok.sum(-1) / mask.sum(-1)).mean()
    elif loss_agg_mode == "seq-mean-token-sum":
        loss = per_tok.sum(-1).mean()
    else:
        loss = (per_tok.sum(-1) / mask.shape[-1]).mean()
    with torch.no_grad():
        lr = new - old
        r = lr.exp()[mask]
        unclipped = (lr.exp() * adv)[mask]
        clipped = (lr.exp().clamp(1 - clip_low, 1 + clip_high) * adv)[mask]
        stats = {"clip_frac": (clipped < unclipped).double().mean().item(),
                 "approx_kl": ((r - 1) - lr[mask]).mean().item(),
                 "ratio_min": r.min().item(), "ratio_max": r.max().item()}
    return loss, stats
