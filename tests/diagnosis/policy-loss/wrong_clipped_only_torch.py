# expect: policy-clipped-only
# framework: torch
# style: only the clamped ratio times the advantage
import torch


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    ratio = torch.exp(new_logp - old_logp.detach())
    clipped_ratio = torch.clamp(ratio, 1.0 - clip_eps, 1.0 + clip_eps)
    return -(clipped_ratio * advantages.detach()).mean()
