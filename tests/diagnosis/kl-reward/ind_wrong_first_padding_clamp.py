# expect: reward-score-first-padding
# framework: torch
# style: index = number of valid tokens, clamped to the last column
import torch


def kl_shaped_rewards(log_probs, ref_log_probs, scores, response_mask, kl_coef=0.1):
    B, T = log_probs.shape
    kl = torch.where(response_mask, log_probs - ref_log_probs, torch.zeros_like(log_probs))
    rewards = -kl_coef * kl
    end = response_mask.sum(-1).clamp(max=T - 1)
    rewards[torch.arange(B), end] += scores.to(rewards.dtype)
    return rewards
