# expect: rloo-batch-baseline
# framework: torch
# style: global sum over all prompts
import torch


def rloo_advantages(rewards):
    if rewards.ndim != 2 or rewards.shape[0] < 1 or rewards.shape[1] < 2:
        raise ValueError("rewards must be [P, K], K >= 2")
    r = rewards
    n = r.numel()
    return r - (r.sum() - r) / (n - 1)
