# expect: right
# framework: torch
# style: piecewise by the advantage's sign with torch.where: A >= 0 caps r at 1 + eps, A < 0 floors it at 1 - eps
import torch


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    adv = advantages.detach()
    ratio = torch.exp(new_logp - old_logp.detach())
    upper = torch.clamp(ratio, max=1.0 + clip_eps)
    lower = torch.clamp(ratio, min=1.0 - clip_eps)
    objective = torch.where(adv >= 0, upper * adv, lower * adv)
    return -objective.mean()
