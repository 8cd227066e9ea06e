# expect: ratio-division
# framework: torch
# style: tensor methods new_logp.exp().div(old_logp.exp()), CleanRL negated max
import torch


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    ratio = new_logp.exp().div(old_logp.detach().exp())
    adv = advantages.detach()
    return torch.max(-adv * ratio, -adv * ratio.clamp(1 - clip_eps, 1 + clip_eps)).mean()
