# expect: reduction-sum
# framework: torch
# style: .sum() on the per-token loss
import torch


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    ratio = torch.exp(new_logp - old_logp.detach())
    adv = advantages.detach()
    loss = -torch.min(ratio * adv, torch.clamp(ratio, 1 - clip_eps, 1 + clip_eps) * adv)
    return loss.sum()
