# expect: right
# framework: torch
# style: verl's rollout correction: IS weights and a rejection mask computed apart, then the vanilla PPO loss
import torch

SAFETY_BOUND = 20.0


def _is_weights(log_ratio, mask, level, threshold):
    if level == "token":
        w = torch.exp(log_ratio.clamp(-SAFETY_BOUND, SAFETY_BOUND))
    else:
        s = torch.where(mask, log_ratio, torch.zeros_like(log_ratio)).sum(-1, keepdim=True)
        w = torch.exp(s.clamp(-SAFETY_BOUND, SAFETY_BOUND)).expand_as(log_ratio)
    return w


def corrected_policy_loss(log_prob, old_log_prob, rollout_log_prob, advantages, response_mask,
                          level="token", mode="truncate", threshold=2.0, clip_eps=0.2):
    if level not in ("token", "sequence") or mode not in ("truncate", "mask") or not threshold > 1:
        raise ValueError("bad rollout correction settings")
    m = response_mask
    z = torch.zeros_like(log_prob)
    old = torch.where(m, old_log_prob, z).detach()
    roll = torch.where(m, rollout_log_prob, z).detach()
    adv = torch.where(m, advantages, z).detach()
    lp = torch.where(m, log_prob, z)
    w = _is_weights(old - roll, m, level, threshold).detach()
    if mode == "truncate":
        keep = m
        w = w.clamp(max=threshold)
    else:
        keep = m & (w >= 1.0 / threshold) & (w <= threshold)
    w = torch.where(keep, w, z)
    ratio = torch.exp(lp - old)
    pg1 = -adv * ratio
    pg2 = -adv * torch.clamp(ratio, 1 - clip_eps, 1 + clip_eps)
    pg = torch.maximum(pg1, pg2) * w
    loss = torch.where(keep, pg, z).sum() / keep.sum().clamp(min=1)
    return loss, w
