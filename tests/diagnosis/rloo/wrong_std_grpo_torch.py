# expect: rloo-normalised-by-std
# framework: torch
# style: GRPO-style whitening of the leave-one-out advantage
import torch


def rloo_advantages(rewards):
    if rewards.ndim != 2 or rewards.shape[0] < 1 or rewards.shape[1] < 2:
        raise ValueError("rewards must be [P, K], K >= 2")
    r = rewards
    k = r.shape[1]
    adv = r - (r.sum(1, keepdim=True) - r) / (k - 1)
    return adv / (r.std(1, keepdim=True) + 1e-6)
