# expect: ratio-wrong-denominator reduction-sum
# framework: torch
# style: ratio against the detached current policy, summed
import torch


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    ratio = (new_logp - new_logp.detach()).exp()
    a = advantages.detach()
    return -torch.min(ratio * a, ratio.clamp(1 - clip_eps, 1 + clip_eps) * a).sum()
