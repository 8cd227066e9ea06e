# expect: right
# framework: torch
# style: a masked_mean helper over the kept tokens, the weight computed under no_grad
import torch


def masked_mean(x, mask):
    return torch.where(mask, x, torch.zeros_like(x)).sum() / mask.sum().clamp(min=1)


def corrected_policy_loss(log_prob, old_log_prob, rollout_log_prob, advantages, response_mask,
                          level="token", mode="truncate", threshold=2.0, clip_eps=0.2):
    if level not in ("token", "sequence") or mode not in ("truncate", "mask") or threshold <= 1:
        raise ValueError("settings")
    m = response_mask
    with torch.no_grad():
        lw = torch.where(m, old_log_prob - rollout_log_prob, torch.zeros_like(log_prob))
        if level == "sequence":
            lw = lw.sum(dim=1, keepdim=True).expand_as(lw)
        w = lw.exp()
        keep = m if mode == "truncate" else m & (w >= 1 / threshold) & (w <= threshold)
        w = torch.where(keep, w.clamp(max=threshold) if mode == "truncate" else w, torch.zeros_like(w))
        adv = torch.where(m, advantages, torch.zeros_like(w))
        old = torch.where(m, old_log_prob, torch.zeros_like(w))
    ratio = torch.exp(torch.where(m, log_prob, torch.zeros_like(w)) - old)
    surr = torch.minimum(ratio * adv, ratio.clamp(1 - clip_eps, 1 + clip_eps) * adv)
    return masked_mean(-w * surr, keep), w
