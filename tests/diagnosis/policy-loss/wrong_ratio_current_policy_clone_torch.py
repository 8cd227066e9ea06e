# expect: ratio-wrong-denominator ratio-division
# framework: torch
# style: probabilities of the current policy as denominator, clone().detach() (divides probabilities too)
import torch


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    probs = new_logp.exp()
    ratio = probs / probs.clone().detach()
    a = advantages.detach()
    l1 = -a * ratio
    l2 = -a * torch.clamp(ratio, 1 - clip_eps, 1 + clip_eps)
    return torch.max(l1, l2).mean()
