# expect: policy-clipped-only grad-into-old-logp
# framework: torch
# style: clipped term only, old log-probs not detached
import torch


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    ratio = (new_logp - old_logp).exp()
    return (-advantages.detach() * ratio.clamp(1 - clip_eps, 1 + clip_eps)).mean()
