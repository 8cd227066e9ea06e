# expect: rloo-batch-baseline
# framework: torch
# style: leave-one-out over the flattened batch
import torch


def rloo_advantages(rewards):
    if rewards.dim() != 2 or rewards.shape[0] == 0 or rewards.shape[1] < 2:
        raise ValueError("bad rewards")
    flat = rewards.reshape(-1)
    n = flat.numel()
    baseline = (flat.sum() - flat) / (n - 1)
    return (flat - baseline).reshape(rewards.shape)
