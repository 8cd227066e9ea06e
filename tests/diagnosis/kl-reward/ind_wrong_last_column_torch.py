# expect: reward-score-last-column
# framework: torch
# style: rewards[:, -1] += scores (left-padding habit)
import torch


def kl_shaped_rewards(log_probs, ref_log_probs, scores, response_mask, kl_coef=0.1):
    kl = torch.where(response_mask, log_probs - ref_log_probs, torch.zeros_like(log_probs))
    rewards = -kl_coef * kl
    rewards[:, -1] = rewards[:, -1] + scores.to(rewards.dtype)
    return rewards
