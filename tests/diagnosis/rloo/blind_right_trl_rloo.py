# expect: right
# framework: torch
# style: TRL's RLOO baseline (sum minus self over K - 1)
import torch


def rloo_advantages(rewards):
    if rewards.ndim != 2 or rewards.shape[0] == 0 or rewards.shape[1] < 2:
        raise ValueError("rewards must be [P, K] with P >= 1 and K >= 2")
    k = rewards.shape[1]
    baseline = (rewards.sum(1, keepdim=True) - rewards) / (k - 1)
    return rewards - baseline
