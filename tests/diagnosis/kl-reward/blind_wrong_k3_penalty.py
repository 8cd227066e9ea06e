# expect: reward-kl-not-k1
# framework: torch
# style: k3 (low_var_kl) in the reward
import torch


def kl_shaped_rewards(log_probs, ref_log_probs, scores, response_mask, kl_coef=0.1):
    zero = torch.zeros((), dtype=log_probs.dtype)
    d = torch.where(response_mask, ref_log_probs - log_probs, zero)
    k3 = torch.exp(d) - d - 1
    rewards = torch.where(response_mask, -kl_coef * k3, zero)
    last = response_mask.sum(-1) - 1
    rewards[torch.arange(rewards.shape[0]), last] += scores.to(rewards.dtype)
    return rewards
