# expect: rloo-batch-baseline
# framework: torch
# style: loop over every sample of the batch, baseline from all the others
import torch


def rloo_advantages(rewards):
    if rewards.dim() != 2 or rewards.shape[0] == 0 or rewards.shape[1] < 2:
        raise ValueError("bad rewards")
    P, K = rewards.shape
    total = rewards.sum()
    out = torch.empty_like(rewards)
    for p in range(P):
        for i in range(K):
            out[p, i] = rewards[p, i] - (total - rewards[p, i]) / (P * K - 1)
    return out
