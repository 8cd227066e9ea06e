# expect:
# expect-unnamed: the loss and the weights
# framework: torch
# style: one ratio pi_theta / pi_rollout clipped by PPO, the correction folded into it
import torch


def corrected_policy_loss(log_prob, old_log_prob, rollout_log_prob, advantages, response_mask,
                          level="token", mode="truncate", threshold=2.0, clip_eps=0.2):
    if level not in ("token", "sequence") or mode not in ("truncate", "mask") or threshold <= 1:
        raise ValueError("settings")
    m = response_mask
    z = torch.zeros_like(log_prob)
    roll = torch.where(m, rollout_log_prob.detach(), z)
    r = torch.exp(torch.where(m, log_prob, z) - roll)
    a = torch.where(m, advantages.detach(), z)
    pg = -torch.minimum(r * a, r.clamp(1 - clip_eps, 1 + clip_eps) * a)
    w = torch.where(m, torch.ones_like(r), z)
    return torch.where(m, pg, z).sum() / m.sum(), w
