# expect: rloo-baseline-includes-self
# framework: torch
# style: baseline is the plain group mean
import torch


def rloo_advantages(rewards):
    if rewards.ndim != 2 or rewards.shape[0] == 0 or rewards.shape[1] < 2:
        raise ValueError("rewards must be [P, K] with P >= 1 and K >= 2")
    return rewards - rewards.mean(dim=1, keepdim=True)
