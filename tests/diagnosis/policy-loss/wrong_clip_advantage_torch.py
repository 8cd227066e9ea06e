# expect: policy-clip-advantage
# framework: torch
# style: the clamp lands on the advantages instead of the ratio
import torch


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    adv = advantages.detach()
    ratio = torch.exp(new_logp - old_logp.detach())
    surr1 = ratio * adv
    surr2 = ratio * torch.clamp(adv, 1 - clip_eps, 1 + clip_eps)
    return -torch.min(surr1, surr2).mean()
