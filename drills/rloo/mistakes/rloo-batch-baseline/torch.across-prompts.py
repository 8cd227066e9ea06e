"""RLOO leave-one-out advantages in PyTorch."""
import torch


def rloo_advantages(rewards):
    """A_i = r_i - mean of the other K - 1 rewards of the same prompt.

    rewards: float tensor [P, K], K sampled responses for each of P prompts. Returns [P, K].
    """
    if rewards.dim() != 2 or rewards.shape[0] == 0 or rewards.shape[1] < 2:
        raise ValueError("rewards must be [P, K] with at least one prompt and K >= 2")
    k = rewards.shape[0]
    total = rewards.sum(dim=0, keepdim=True)
    # The baseline of sample i leaves r_i out, so it is independent of sample i.
    baseline = (total - rewards) / (k - 1)
    advantages = rewards - baseline
    return advantages
