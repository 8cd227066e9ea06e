# expect: rloo-normalised-by-std
# framework: torch
# style: leave-one-out advantage divided by the group's sample std (torch's default, Bessel-corrected)
import torch


def rloo_advantages(rewards):
    if rewards.ndim != 2 or rewards.shape[0] < 1 or rewards.shape[1] < 2:
        raise ValueError("rewards must be [P, K], K >= 2")
    r = rewards
    k = r.shape[1]
    adv = r - (r.sum(dim=1, keepdim=True) - r) / (k - 1)
    scale = torch.std(r, 1, keepdim=True)
    return adv / (scale + 1e-8)
