# expect: policy-no-clip
# framework: torch
# style: importance-sampled policy gradient, no clip
import torch


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    ratio = torch.exp(new_logp - old_logp.detach())
    return -(ratio * advantages.detach()).mean()
