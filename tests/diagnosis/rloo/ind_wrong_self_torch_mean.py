# expect: rloo-baseline-includes-self
# framework: torch
# style: per-row mean over all K
import torch


def rloo_advantages(rewards):
    if rewards.dim() != 2 or rewards.shape[0] == 0 or rewards.shape[1] < 2:
        raise ValueError("bad rewards")
    return rewards - rewards.mean(dim=1, keepdim=True)
