# expect: reward-score-replaces-kl
# style: scatter_ instead of scatter_add_
import torch


def kl_shaped_rewards(log_probs, ref_log_probs, scores, response_mask, kl_coef=0.1):
    kl = (log_probs - ref_log_probs).masked_fill(~response_mask, 0.0)
    rewards = -kl_coef * kl
    idx = (response_mask.sum(dim=1, keepdim=True) - 1).long()
    return rewards.scatter(1, idx, scores.unsqueeze(1).to(rewards.dtype))
