# expect: rloo-baseline-includes-self
# framework: torch
# style: loop, baseline over the whole group
import torch


def rloo_advantages(rewards):
    if rewards.ndim != 2 or rewards.shape[0] < 1 or rewards.shape[1] < 2:
        raise ValueError("rewards must be [P, K], K >= 2")
    r = rewards
    out = torch.zeros_like(r)
    for p in range(r.shape[0]):
        group = r[p]
        out[p] = group - group.sum() / group.numel()
    return out
