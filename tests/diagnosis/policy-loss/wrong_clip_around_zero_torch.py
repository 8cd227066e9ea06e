# expect: clip-around-zero
# framework: torch
# style: SB3-like, the band written as [-clip_eps, clip_eps]
import torch


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    adv = advantages.detach()
    ratio = torch.exp(new_logp - old_logp.detach())
    surr1 = ratio * adv
    surr2 = torch.clamp(ratio, -clip_eps, clip_eps) * adv
    return -torch.min(surr1, surr2).mean()
