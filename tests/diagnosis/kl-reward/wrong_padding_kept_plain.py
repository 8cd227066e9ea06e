# expect: reward-padding-kept
# style: penalty over the whole row
import torch


def kl_shaped_rewards(log_probs, ref_log_probs, scores, response_mask, kl_coef=0.1):
    rewards = -kl_coef * (log_probs - ref_log_probs)
    end = response_mask.sum(-1) - 1
    rewards[torch.arange(rewards.size(0)), end] += scores
    return rewards
