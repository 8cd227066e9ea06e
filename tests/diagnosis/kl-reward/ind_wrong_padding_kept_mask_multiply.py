# expect: reward-padding-kept
# framework: torch
# style: KL masked by multiplying with the float mask (NaN * 0 stays NaN)
import torch


def kl_shaped_rewards(log_probs, ref_log_probs, scores, response_mask, kl_coef=0.1):
    fm = response_mask.to(log_probs.dtype)
    rewards = -kl_coef * (log_probs - ref_log_probs) * fm
    idx = fm.sum(1).long() - 1
    rewards[torch.arange(len(idx)), idx] += scores.to(rewards.dtype)
    return rewards
