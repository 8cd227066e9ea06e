# expect: policy-no-clip
# framework: torch
# style: min of two identical surrogates (the clamp was computed but never used)
import torch


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    adv = advantages.detach()
    ratio = torch.exp(new_logp - old_logp.detach())
    clipped_ratio = torch.clamp(ratio, 1 - clip_eps, 1 + clip_eps)  # noqa: F841
    surr1 = ratio * adv
    surr2 = ratio * adv
    return -torch.min(surr1, surr2).mean()
