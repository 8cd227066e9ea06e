# expect: reward-score-every-token
# framework: torch
# style: per-token loop that adds the score to each token's reward
import torch


def kl_shaped_rewards(log_probs, ref_log_probs, scores, response_mask, kl_coef=0.1):
    B, T = log_probs.shape
    rewards = torch.zeros_like(log_probs)
    for b in range(B):
        for t in range(T):
            if response_mask[b, t]:
                rewards[b, t] = scores[b] - kl_coef * (log_probs[b, t] - ref_log_probs[b, t])
    return rewards
