# expect: clip-fraction-outside-band
# framework: torch
# style: SB3-style torch.gt on the distance from 1, each side its own width
import torch


def compute_policy_loss(log_prob, old_log_prob, advantages, response_mask, clip_low=0.2, clip_high=0.2,
                        dual_clip=None, loss_agg_mode="token-mean"):
    if loss_agg_mode not in ("token-mean", "seq-mean-token-mean", "seq-mean-token-sum", "seq-mean-token-sum-norm"):
        raise ValueError(loss_agg_mode)
    if dual_clip is not None and dual_clip <= 1.0:
        raise ValueError("dual_clip")
    valid = response_mask
    z = torch.zeros((), dtype=log_prob.dtype)
    lr = torch.where(valid, log_prob - old_log_prob.detach(), z)
    A = torch.where(valid, advantages.detach(), z)
    ratio = torch.exp(lr)
    obj = torch.min(ratio * A, torch.clamp(ratio, 1 - clip_low, 1 + clip_high) * A)
    if dual_clip is not None:
        obj = torch.where(A < 0, torch.max(obj, A * dual_clip), obj)
    seq = (-obj).sum(dim=1)
    n = valid.sum(dim=1)
    if loss_agg_mode == "token-mean":
        loss = seq.sum() / n.sum()
    elif loss_agg_mode == "seq-mean-token-mean":
        loss = (seq / n).mean()
    elif loss_agg_mode == "seq-mean-token-sum":
        loss = seq.mean()
    else:
        loss = (seq / valid.shape[1]).mean()
    with torch.no_grad():
        d = ratio[valid] - 1
        frac = (torch.gt(d, clip_high) | torch.gt(-d, clip_low)).double().mean()
        r = ratio[valid]
    return loss, {"clip_frac": frac.item(), "approx_kl": (r - 1 - lr[valid]).mean().item(),
                  "ratio_min": r.min().item(), "ratio_max": r.max().item()}
