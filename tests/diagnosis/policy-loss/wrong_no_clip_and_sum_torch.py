# expect: policy-no-clip reduction-sum
# framework: torch
# style: REINFORCE-with-ratio summed over every token
import torch


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    ratio = (new_logp - old_logp.detach()).exp()
    return torch.sum(-ratio * advantages.detach())
