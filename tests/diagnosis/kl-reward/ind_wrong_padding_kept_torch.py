# expect: reward-padding-kept
# framework: torch
# style: KL reward computed on the full grid, only the score is placed by the mask
import torch


def kl_shaped_rewards(log_probs, ref_log_probs, scores, response_mask, kl_coef=0.1):
    B = log_probs.shape[0]
    rewards = -kl_coef * (log_probs - ref_log_probs)
    last = response_mask.sum(-1) - 1
    rewards = rewards.clone()
    rewards[torch.arange(B), last] += scores.to(rewards.dtype)
    return rewards
