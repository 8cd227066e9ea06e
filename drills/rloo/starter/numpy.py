"""RLOO leave-one-out advantages in NumPy: write rloo_advantages (see prompt.md)."""
import numpy


def rloo_advantages(rewards):
    """REINFORCE leave-one-out advantages.

    Args:
        rewards: float array [P, K]: row p holds the rewards of the K responses sampled for prompt p.

    Returns:
        A float array [P, K]: each reward minus the mean reward of the other K - 1 responses to the
        same prompt.
    """
    raise NotImplementedError
