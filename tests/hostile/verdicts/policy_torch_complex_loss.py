# drill: policy-loss
# framework: torch
# expect: output-type
# The right loss as a complex tensor (autograd still runs on its real part).
import torch


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    ratio = torch.exp(new_logp - old_logp)
    loss = -torch.min(ratio * advantages, torch.clamp(ratio, 1 - clip_eps, 1 + clip_eps) * advantages).mean()
    return loss + 0j
