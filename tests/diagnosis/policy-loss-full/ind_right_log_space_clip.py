# expect: right
# framework: torch
# style: the band applied in log space (clamp the log-ratio to [log(1-low), log(1+high)])
import math
import torch


def compute_policy_loss(log_prob, old_log_prob, advantages, response_mask, clip_low=0.2, clip_high=0.2,
                        dual_clip=None, loss_agg_mode="token-mean"):
    if loss_agg_mode not in ("token-mean", "seq-mean-token-mean", "seq-mean-token-sum", "seq-mean-token-sum-norm"):
        raise ValueError(loss_agg_mode)
    if dual_clip is not None and dual_clip <= 1:
        raise ValueError("dual_clip must be > 1")
    m = response_mask
    lp = log_prob.masked_fill(~m, 0.0)
    olp = old_log_prob.detach().masked_fill(~m, 0.0)
    A = advantages.detach().masked_fill(~m, 0.0)
    log_ratio = lp - olp
    ratio = log_ratio.exp()
    clipped_ratio = log_ratio.clamp(math.log(1 - clip_low), math.log(1 + clip_high)).exp()
    obj = torch.minimum(ratio * A, clipped_ratio * A)
    if dual_clip is not None:
        obj = torch.where(A < 0, torch.maximum(obj, dual_clip * A), obj)
    loss_mat = (-obj).masked_fill(~m, 0.0)
    n_b = m.sum(1)
    loss = {
        "token-mean": lambda: loss_mat.sum() / n_b.sum(),
        "seq-mean-token-mean": lambda: (loss_mat.sum(1) / n_b).mean(),
        "seq-mean-token-sum": lambda: loss_mat.sum(1).mean(),
        "seq-mean-token-sum-norm": lambda: (loss_mat.sum(1) / loss_mat.shape[1]).mean(),
    }[loss_agg_mode]()
    with torch.no_grad():
        band_active = (torch.clamp(ratio, 1 - clip_low, 1 + clip_high) * A < ratio * A)[m]
        r = ratio[m]
        stats = {
            "clip_frac": band_active.double().mean().item(),
            "approx_kl": (r - 1 - log_ratio[m]).mean().item(),
            "ratio_min": r.min().item(),
            "ratio_max": r.max().item(),
        }
    return loss, stats
