# expect: right
# framework: torch
# style: torch.where on "the clipped branch is the active one": (A > 0, r > 1 + eps) or (A < 0, r < 1 - eps)
import torch


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    adv = advantages.detach()
    ratio = torch.exp(new_logp - old_logp.detach())
    clipped = torch.clamp(ratio, 1 - clip_eps, 1 + clip_eps)
    use_clipped = ((adv > 0) & (ratio > 1 + clip_eps)) | ((adv < 0) & (ratio < 1 - clip_eps))
    surrogate = torch.where(use_clipped, clipped * adv, ratio * adv)
    return -surrogate.mean()
