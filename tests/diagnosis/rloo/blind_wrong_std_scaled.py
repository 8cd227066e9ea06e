# expect: rloo-normalised-by-std
# framework: torch
# style: leave-one-out, then divided by the group std
import torch


def rloo_advantages(rewards):
    if rewards.ndim != 2 or rewards.shape[0] == 0 or rewards.shape[1] < 2:
        raise ValueError("rewards must be [P, K] with P >= 1 and K >= 2")
    k = rewards.shape[1]
    adv = rewards - (rewards.sum(1, keepdim=True) - rewards) / (k - 1)
    return adv / (rewards.std(dim=1, keepdim=True) + 1e-8)
