# expect: ratio-inverted
# framework: torch
# style: old minus new in the exponent
import torch


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    ratio = torch.exp(old_logp.detach() - new_logp)
    adv = advantages.detach()
    return -torch.min(ratio * adv, torch.clamp(ratio, 1 - clip_eps, 1 + clip_eps) * adv).mean()
