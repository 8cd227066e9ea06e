# expect: reward-score-replaces-kl
# framework: torch
# style: rewards[arange, last] = scores (assignment, not +=)
import torch


def kl_shaped_rewards(log_probs, ref_log_probs, scores, response_mask, kl_coef=0.1):
    B = log_probs.shape[0]
    rewards = torch.where(response_mask, -kl_coef * (log_probs - ref_log_probs), torch.zeros_like(log_probs))
    last = response_mask.long().sum(-1) - 1
    rewards[torch.arange(B), last] = scores.to(rewards.dtype)
    return rewards
