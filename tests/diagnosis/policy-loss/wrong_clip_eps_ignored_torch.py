# expect: clip-eps-ignored
# framework: torch
# style: literal band 0.8 / 1.2
import torch


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    ratio = torch.exp(new_logp - old_logp.detach())
    adv = advantages.detach()
    return -torch.min(ratio * adv, torch.clamp(ratio, 0.8, 1.2) * adv).mean()
