# expect: right
# framework: torch
# style: TRL RLOO: baseline = (sum - r) / (K - 1), per prompt row
import torch


def rloo_advantages(rewards):
    if rewards.dim() != 2:
        raise ValueError("rewards must be [P, K]")
    P, K = rewards.shape
    if P == 0 or K < 2:
        raise ValueError("need at least one prompt and K >= 2 samples")
    baseline = (rewards.sum(dim=1, keepdim=True) - rewards) / (K - 1)
    return rewards - baseline
