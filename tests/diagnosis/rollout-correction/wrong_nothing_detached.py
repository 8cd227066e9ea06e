# expect: mis-grad-into-old-logp
# framework: torch
# style: every log-prob tensor used live
import torch


def corrected_policy_loss(log_prob, old_log_prob, rollout_log_prob, advantages, response_mask,
                          level="token", mode="truncate", threshold=2.0, clip_eps=0.2):
    if level not in ("token", "sequence") or mode not in ("truncate", "mask") or threshold <= 1:
        raise ValueError("settings")
    m = response_mask
    z = torch.zeros_like(log_prob)
    old = torch.where(m, old_log_prob, z)
    roll = torch.where(m, rollout_log_prob, z)
    lw = old - roll
    if level == "sequence":
        lw = lw.sum(-1, keepdim=True).expand_as(lw)
    w = lw.exp()
    if mode == "truncate":
        keep, w = m, w.clamp(max=threshold)
    else:
        keep = m & (w >= 1 / threshold) & (w <= threshold)
    w = torch.where(keep, w, z)
    r = torch.exp(torch.where(m, log_prob, z) - old)
    a = torch.where(m, advantages.detach(), z)
    pg = -torch.minimum(r * a, r.clamp(1 - clip_eps, 1 + clip_eps) * a)
    return torch.where(keep, w * pg, z).sum() / keep.sum().clamp(min=1), w.detach()
