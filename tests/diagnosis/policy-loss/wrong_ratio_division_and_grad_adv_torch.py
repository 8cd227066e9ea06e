# expect: ratio-division grad-into-advantages
# framework: torch
# style: divided probabilities and advantages not detached
import torch


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    ratio = torch.exp(new_logp) / torch.exp(old_logp).detach()
    s1 = ratio * advantages
    s2 = torch.clamp(ratio, 1 - clip_eps, 1 + clip_eps) * advantages
    return -torch.min(s1, s2).mean()
