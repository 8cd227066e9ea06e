# expect: rloo-divides-by-k
# framework: torch
# style: off-diagonal averaging matrix scaled by 1 / K
import torch


def rloo_advantages(rewards):
    if rewards.ndim != 2 or rewards.shape[0] < 1 or rewards.shape[1] < 2:
        raise ValueError("rewards must be [P, K], K >= 2")
    r = rewards
    k = r.shape[1]
    w = (torch.ones(k, k, dtype=r.dtype) - torch.eye(k, dtype=r.dtype)) / k
    return r - r @ w
