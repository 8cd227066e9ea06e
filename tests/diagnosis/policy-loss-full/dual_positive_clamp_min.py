# expect: policy-dual-clip-positive
# framework: torch
# style: objective clamped from below by c A, no sign test
import torch

MODES = ("token-mean", "seq-mean-token-mean", "seq-mean-token-sum", "seq-mean-token-sum-norm")


def compute_policy_loss(log_prob, old_log_prob, advantages, response_mask, clip_low=0.2, clip_high=0.2,
                        dual_clip=None, loss_agg_mode="token-mean"):
    if loss_agg_mode not in MODES:
        raise ValueError("mode")
    if dual_clip is not None and dual_clip <= 1.0:
        raise ValueError("dual clip constant must be above 1")
    keep = response_mask
    log_ratio = (log_prob - old_log_prob.detach()).masked_fill(~keep, 0.0)
    A = advantages.detach().masked_fill(~keep, 0.0)
    ratio = log_ratio.exp()
    unclipped = ratio * A
    clipped = ratio.clamp(1 - clip_low, 1 + clip_high) * A
    objective = torch.minimum(unclipped, clipped)
    if dual_clip is not None:
        objective = torch.maximum(objective, A * dual_clip)
    per_seq = (-objective).sum(-1)
    n = keep.sum(-1)
    if loss_agg_mode == "token-mean":
        loss = per_seq.sum() / n.sum()
    elif loss_agg_mode == "seq-mean-token-mean":
        loss = (per_seq / n).mean()
    elif loss_agg_mode == "seq-mean-token-sum":
        loss = per_seq.mean()
    else:
        loss = (per_seq / keep.shape[-1]).mean()
    r = ratio.detach()[keep]
    return loss, {"clip_frac": (clipped < unclipped)[keep].float().mean().item(),
                  "approx_kl": ((r - 1) - log_ratio.detach()[keep]).mean().item(),
                  "ratio_min": r.min().item(), "ratio_max": r.max().item()}
