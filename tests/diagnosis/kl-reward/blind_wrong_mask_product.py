# expect: reward-padding-kept
# framework: torch
# style: per-token penalty multiplied by the float mask
import torch


def kl_shaped_rewards(log_probs, ref_log_probs, scores, response_mask, kl_coef=0.1):
    m = response_mask.to(log_probs.dtype)
    rewards = -kl_coef * (log_probs - ref_log_probs) * m
    last = response_mask.sum(-1) - 1
    rewards[torch.arange(rewards.shape[0]), last] += scores.to(rewards.dtype)
    return rewards
