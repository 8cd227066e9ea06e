# expect: rloo-divides-by-k
# framework: torch
# style: loop, the other samples summed and divided by the group size
import torch


def rloo_advantages(rewards):
    if rewards.ndim != 2 or rewards.shape[0] < 1 or rewards.shape[1] < 2:
        raise ValueError("rewards must be [P, K], K >= 2")
    r = rewards
    P, K = r.shape
    adv = torch.empty_like(r)
    for i in range(K):
        rest = r.sum(dim=1) - r[:, i]
        adv[:, i] = r[:, i] - rest / K
    return adv
