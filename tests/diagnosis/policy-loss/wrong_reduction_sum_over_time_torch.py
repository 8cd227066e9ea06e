# expect: reduction-sum
# framework: torch
# style: summed over time, averaged over the batch (sequence-level loss)
import torch


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    adv = advantages.detach()
    ratio = (new_logp - old_logp.detach()).exp()
    per_token = torch.max(-adv * ratio, -adv * ratio.clamp(1 - clip_eps, 1 + clip_eps))
    return per_token.sum(dim=-1).mean()
