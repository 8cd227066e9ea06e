# expect: reward-score-first-padding
# framework: torch
# style: TRL's score at seq_len (the first padded slot), clamped to the last column
import torch


def kl_shaped_rewards(log_probs, ref_log_probs, scores, response_mask, kl_coef=0.1):
    zero = torch.zeros((), dtype=log_probs.dtype)
    rewards = torch.where(response_mask, -kl_coef * (log_probs - ref_log_probs), zero)
    T = rewards.shape[1]
    idx = torch.clamp(response_mask.sum(-1), max=T - 1)
    rewards[torch.arange(rewards.shape[0]), idx] += scores.to(rewards.dtype)
    return rewards
