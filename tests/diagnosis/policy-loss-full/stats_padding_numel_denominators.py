# expect: policy-stats-over-padding
# framework: torch
# style: sums over valid tokens divided by numel, extremes over everything
import torch


def compute_policy_loss(log_prob, old_log_prob, advantages, response_mask, clip_low=0.2, clip_high=0.2,
                        dual_clip=None, loss_agg_mode="token-mean"):
    if loss_agg_mode not in ("token-mean", "seq-mean-token-mean", "seq-mean-token-sum", "seq-mean-token-sum-norm"):
        raise ValueError(loss_agg_mode)
    if dual_clip is not None and dual_clip <= 1:
        raise ValueError("dual_clip")
    valid = response_mask
    zero = torch.zeros((), dtype=log_prob.dtype)
    lr = torch.where(valid, log_prob - old_log_prob.detach(), zero)
    A = torch.where(valid, advantages.detach(), zero)
    r = lr.exp()
    unc, clp = r * A, r.clamp(1 - clip_low, 1 + clip_high) * A
    obj = torch.minimum(unc, clp)
    if dual_clip is not None:
        obj = torch.where(A < 0, torch.maximum(obj, dual_clip * A), obj)
    tok = -obj
    if loss_agg_mode == "token-mean":
        loss = tok.sum() / valid.sum()
    elif loss_agg_mode == "seq-mean-token-mean":
        loss = (tok.sum(-1) / valid.sum(-1)).mean()
    elif loss_agg_mode == "seq-mean-token-sum":
        loss = tok.sum(-1).mean()
    else:
        loss = (tok.sum(-1) / valid.shape[-1]).mean()
    with torch.no_grad():
        n = valid.numel()
        stats = {"clip_frac": float((clp < unc).sum() / n), "approx_kl": float((r - 1 - lr).sum() / n),
                 "ratio_min": float(r.min()), "ratio_max": float(r.max())}
    return loss, stats
