# expect: reward-kl-not-k1
# framework: torch
# style: "low variance" k3 penalty per token, otherwise verl layout
import torch


def kl_shaped_rewards(log_probs, ref_log_probs, scores, response_mask, kl_coef=0.1):
    B, T = log_probs.shape
    d = torch.where(response_mask, log_probs - ref_log_probs, torch.zeros_like(log_probs))
    kl = torch.exp(-d) - 1 + d
    rewards = torch.where(response_mask, -kl_coef * kl, torch.zeros_like(kl))
    last = response_mask.sum(-1) - 1
    rewards[torch.arange(B), last] += scores.to(rewards.dtype)
    return rewards
