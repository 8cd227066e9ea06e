# expect: reward-kl-sign
# framework: torch
# style: the KL term written as + beta * (logp - ref)
import torch


def kl_shaped_rewards(log_probs, ref_log_probs, scores, response_mask, kl_coef=0.1):
    kl = (log_probs - ref_log_probs).masked_fill(~response_mask, 0.0)
    rewards = kl_coef * kl
    last = (response_mask.sum(dim=1) - 1).unsqueeze(1)
    rewards = rewards.scatter_add(1, last, scores.unsqueeze(1).to(rewards.dtype))
    return rewards.masked_fill(~response_mask, 0.0)
