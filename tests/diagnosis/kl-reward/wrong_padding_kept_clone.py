# expect: reward-padding-kept
# style: TRL-style clone, mask only for the index
import torch


def kl_shaped_rewards(log_probs, ref_log_probs, scores, response_mask, kl_coef=0.1):
    kl = log_probs - ref_log_probs
    non_score_reward = -kl_coef * kl
    rewards = non_score_reward.clone()
    seq_end = response_mask.long().sum(1) - 1
    rewards[[torch.arange(rewards.shape[0]), seq_end]] += scores
    return rewards
