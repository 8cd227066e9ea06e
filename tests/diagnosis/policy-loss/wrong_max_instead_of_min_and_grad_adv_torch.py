# expect: policy-max-instead-of-min grad-into-advantages
# framework: torch
# style: torch.maximum of the gains, advantages not detached
import torch


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    ratio = torch.exp(new_logp - old_logp.detach())
    obj = torch.maximum(ratio * advantages, torch.clamp(ratio, 1 - clip_eps, 1 + clip_eps) * advantages)
    return -obj.mean()
