# expect: rloo-baseline-includes-self
# framework: torch
# style: averaging matrix ones / K (diagonal kept)
import torch


def rloo_advantages(rewards):
    if rewards.ndim != 2 or rewards.shape[0] < 1 or rewards.shape[1] < 2:
        raise ValueError("bad rewards")
    K = rewards.shape[1]
    W = torch.full((K, K), 1.0 / K, dtype=rewards.dtype)
    return rewards - rewards @ W
