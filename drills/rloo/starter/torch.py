"""RLOO leave-one-out advantages in PyTorch: write rloo_advantages (see prompt.md)."""
import torch


def rloo_advantages(rewards):
    """REINFORCE leave-one-out advantages.

    Args:
        rewards: float tensor [P, K]: row p holds the rewards of the K responses sampled for prompt p.

    Returns:
        A float tensor [P, K]: each reward minus the mean reward of the other K - 1 responses to the
        same prompt.
    """
    raise NotImplementedError
