# expect: reward-score-replaces-kl
# framework: torch
# style: torch.where(is_last, score, kl_reward)
import torch


def kl_shaped_rewards(log_probs, ref_log_probs, scores, response_mask, kl_coef=0.1):
    T = response_mask.shape[1]
    pos = torch.arange(T).unsqueeze(0)
    is_last = pos == (response_mask.sum(1, keepdim=True) - 1)
    kl_reward = torch.where(response_mask, -kl_coef * (log_probs - ref_log_probs), torch.zeros_like(log_probs))
    return torch.where(is_last, scores.unsqueeze(1).to(log_probs.dtype), kl_reward)
