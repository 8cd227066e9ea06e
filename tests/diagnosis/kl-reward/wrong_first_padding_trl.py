# expect: reward-score-first-padding
# style: TRL actual_end = seq_len + 1 unless out of range
import torch


def kl_shaped_rewards(log_probs, ref_log_probs, scores, response_mask, kl_coef=0.1):
    T = log_probs.shape[1]
    kl = torch.where(response_mask, log_probs - ref_log_probs, torch.zeros_like(log_probs))
    rewards = -kl_coef * kl
    seq_len_p1 = response_mask.sum(1)
    actual_end = torch.where(seq_len_p1 < T, seq_len_p1, seq_len_p1 - 1)
    rewards[torch.arange(rewards.shape[0]), actual_end] += scores
    return rewards
