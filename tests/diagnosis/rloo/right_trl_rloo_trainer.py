# expect: right
# framework: torch
# style: TRL RLOOTrainer idiom: baseline from (sum - r) / (k - 1), samples laid out as columns then transposed
import torch


def rloo_advantages(rewards):
    if rewards.ndim != 2 or rewards.shape[0] < 1 or rewards.shape[1] < 2:
        raise ValueError("rewards must be [P, K], K >= 2")
    r = rewards
    k = r.shape[1]
    rlhf_reward = r.t()                      # (k, num_prompts), as TRL stores it
    baseline = (rlhf_reward.sum(0) - rlhf_reward) / (k - 1)
    return (rlhf_reward - baseline).t()
