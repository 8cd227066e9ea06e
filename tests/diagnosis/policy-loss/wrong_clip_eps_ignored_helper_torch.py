# expect: clip-eps-ignored
# framework: torch
# style: helper with its own default eps, called without passing clip_eps
import torch


def clipped_surrogate(ratio, adv, eps=0.2):
    return torch.min(ratio * adv, ratio.clamp(1 - eps, 1 + eps) * adv)


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    ratio = (new_logp - old_logp.detach()).exp()
    return -clipped_surrogate(ratio, advantages.detach()).mean()
