# expect: ratio-inverted grad-into-old-logp
# framework: torch
# style: two slips: old/new ratio, old log-probs in the graph
import torch


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    ratio = torch.exp(old_logp - new_logp)
    a = advantages.detach()
    return -torch.min(ratio * a, torch.clamp(ratio, 1 - clip_eps, 1 + clip_eps) * a).mean()
