# expect: rloo-normalised-by-std
# framework: torch
# style: RLOO advantages then divided by the row std (+ eps)
import torch


def rloo_advantages(rewards):
    if rewards.dim() != 2 or rewards.shape[0] == 0 or rewards.shape[1] < 2:
        raise ValueError("bad rewards")
    K = rewards.shape[1]
    adv = rewards - (rewards.sum(1, keepdim=True) - rewards) / (K - 1)
    return adv / (rewards.std(dim=1, keepdim=True) + 1e-8)
