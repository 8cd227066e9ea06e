# expect: grad-into-old-logp reduction-sum
# framework: torch
# style: old log-probs in the graph and the loss summed
import torch


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    a = advantages.detach()
    r = torch.exp(new_logp - old_logp)
    per_token = -torch.min(r * a, torch.clamp(r, 1 - clip_eps, 1 + clip_eps) * a)
    return per_token.sum()
