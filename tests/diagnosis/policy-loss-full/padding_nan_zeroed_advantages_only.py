# expect: policy-padding-nan
# framework: torch
# style: advantages zeroed on padding by a product, the ratio left raw
import torch


def compute_policy_loss(log_prob, old_log_prob, advantages, response_mask, clip_low=0.2, clip_high=0.2,
                        dual_clip=None, loss_agg_mode="token-mean"):
    if loss_agg_mode not in ("token-mean", "seq-mean-token-mean", "seq-mean-token-sum", "seq-mean-token-sum-norm"):
        raise ValueError(loss_agg_mode)
    if dual_clip is not None and dual_clip <= 1:
        raise ValueError("dual_clip")
    m = response_mask
    log_ratio = log_prob - old_log_prob.detach()
    ratio = torch.exp(log_ratio)
    adv = advantages.detach() * m
    s1 = ratio * adv
    s2 = torch.clamp(ratio, 1 - clip_low, 1 + clip_high) * adv
    obj = torch.minimum(s1, s2)
    if dual_clip is not None:
        obj = torch.where(adv < 0, torch.maximum(obj, dual_clip * adv), obj)
    rows = (-obj).sum(-1)
    n = m.sum(-1)
    if loss_agg_mode == "token-mean":
        loss = rows.sum() / n.sum()
    elif loss_agg_mode == "seq-mean-token-mean":
        loss = (rows / n).mean()
    elif loss_agg_mode == "seq-mean-token-sum":
        loss = rows.mean()
    else:
        loss = (rows / m.shape[-1]).mean()
    with torch.no_grad():
        return loss, {"clip_frac": (s2 < s1)[m].double().mean().item(),
                      "approx_kl": ((ratio - 1) - log_ratio)[m].mean().item(),
                      "ratio_min": ratio[m].min().item(), "ratio_max": ratio[m].max().item()}
