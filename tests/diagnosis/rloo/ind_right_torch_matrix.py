# expect: right
# framework: torch
# style: baseline as a matrix product with (ones - eye) / (K - 1)
import torch


def rloo_advantages(rewards):
    if rewards.ndim != 2:
        raise ValueError("expected [P, K]")
    P, K = rewards.shape
    if P < 1 or K < 2:
        raise ValueError("P >= 1 and K >= 2 required")
    W = (torch.ones(K, K, dtype=rewards.dtype) - torch.eye(K, dtype=rewards.dtype)) / (K - 1)
    return rewards - rewards @ W
