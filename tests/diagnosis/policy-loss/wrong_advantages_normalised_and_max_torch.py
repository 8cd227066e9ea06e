# expect: policy-advantages-normalised policy-max-instead-of-min
# framework: torch
# style: standardised advantages and the optimistic max
import torch


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    a = advantages.detach()
    a = (a - a.mean()) / (a.std() + 1e-8)
    r = torch.exp(new_logp - old_logp.detach())
    return -torch.max(r * a, torch.clamp(r, 1 - clip_eps, 1 + clip_eps) * a).mean()
