# expect: reward-kl-not-k1
# style: low-variance k3 in the reward
import torch


def kl_shaped_rewards(log_probs, ref_log_probs, scores, response_mask, kl_coef=0.1):
    x = ref_log_probs - log_probs
    k3 = torch.exp(x) - 1 - x
    rewards = torch.where(response_mask, -kl_coef * k3, torch.zeros_like(k3))
    last = response_mask.sum(-1) - 1
    rewards[torch.arange(rewards.shape[0]), last] += scores
    return rewards
