# expect: ratio-division
# framework: torch
# style: probabilities first, then divided
import torch


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    p_new = torch.exp(new_logp)
    p_old = torch.exp(old_logp.detach())
    ratio = p_new / p_old
    adv = advantages.detach()
    return -torch.min(ratio * adv, torch.clamp(ratio, 1 - clip_eps, 1 + clip_eps) * adv).mean()
