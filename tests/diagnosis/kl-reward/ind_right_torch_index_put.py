# expect: right
# framework: torch
# style: index_put_ with accumulate=True on the KL reward
import torch


def kl_shaped_rewards(log_probs, ref_log_probs, scores, response_mask, kl_coef=0.1):
    rows = torch.arange(response_mask.shape[0])
    cols = response_mask.sum(1) - 1
    rewards = torch.where(response_mask, -kl_coef * (log_probs - ref_log_probs), torch.zeros_like(log_probs))
    rewards = rewards.clone()
    rewards.index_put_((rows, cols), scores.to(rewards.dtype), accumulate=True)
    return rewards
