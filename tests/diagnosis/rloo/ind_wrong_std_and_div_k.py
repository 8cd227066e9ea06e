# expect: rloo-normalised-by-std rloo-divides-by-k
# framework: torch
# style: others' sum over K, then scaled by the group std
import torch


def rloo_advantages(rewards):
    if rewards.dim() != 2 or rewards.shape[0] == 0 or rewards.shape[1] < 2:
        raise ValueError("bad rewards")
    K = rewards.shape[1]
    adv = rewards - (rewards.sum(-1, keepdim=True) - rewards) / K
    std = rewards.std(-1, keepdim=True)
    return adv / (std + 1e-6)
