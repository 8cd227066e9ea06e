# expect: ratio-inverted
# framework: torch
# style: reciprocal of the right ratio, torch.reciprocal
import torch


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    adv = advantages.detach()
    ratio = torch.reciprocal(torch.exp(new_logp - old_logp.detach()))
    surr = torch.minimum(ratio * adv, ratio.clamp(1 - clip_eps, 1 + clip_eps) * adv)
    return -surr.mean()
