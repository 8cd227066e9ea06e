# expect: clip-fraction-outside-band
# framework: torch
# style: counts tokens whose ratio the clamp changed
import torch


def compute_policy_loss(log_prob, old_log_prob, advantages, response_mask, clip_low=0.2, clip_high=0.2,
                        dual_clip=None, loss_agg_mode="token-mean"):
    if dual_clip is not None and not dual_clip > 1:
        raise ValueError("dual_clip")
    if loss_agg_mode not in ("token-mean", "seq-mean-token-mean", "seq-mean-token-sum", "seq-mean-token-sum-norm"):
        raise ValueError(loss_agg_mode)
    mask = response_mask
    lr = (log_prob - old_log_prob.detach()).masked_fill(~mask, 0.0)
    adv = advantages.detach().masked_fill(~mask, 0.0)
    ratio = lr.exp()
    clamped = ratio.clamp(1 - clip_low, 1 + clip_high)
    obj = torch.min(ratio * adv, clamped * adv)
    if dual_clip is not None:
        obj = torch.where(adv < 0, torch.max(obj, dual_clip * adv), obj)
    per_row = (-obj).sum(-1)
    if loss_agg_mode == "token-mean":
        loss = per_row.sum() / mask.sum()
    elif loss_agg_mode == "seq-mean-token-mean":
        loss = (per_row / mask.sum(-1)).mean()
    elif loss_agg_mode == "seq-mean-token-sum":
        loss = per_row.mean()
    else:
        loss = (per_row / mask.shape[-1]).mean()
    with torch.no_grad():
        changed = (clamped != ratio)[mask]
        r = ratio[mask]
        return loss, {"clip_frac": changed.double().mean().item(), "approx_kl": (r - 1 - lr[mask]).mean().item(),
                      "ratio_min": r.min().item(), "ratio_max": r.max().item()}
