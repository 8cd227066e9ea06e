# expect: rloo-divides-by-k
# framework: torch
# style: leave-one-out sum over K
import torch


def rloo_advantages(rewards):
    if rewards.dim() != 2 or rewards.shape[0] == 0 or rewards.shape[1] < 2:
        raise ValueError("bad rewards")
    K = rewards.shape[1]
    return rewards - (rewards.sum(1, keepdim=True) - rewards) / K
