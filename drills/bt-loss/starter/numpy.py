"""Bradley-Terry reward-model loss in NumPy: write bradley_terry_loss (see prompt.md)."""
import numpy as np


def bradley_terry_loss(r_chosen, r_rejected, margin=0.0):
    """The reward-model loss on preference pairs.

    Args:
        r_chosen: float array [N], the reward of the preferred response of each pair.
        r_rejected: float array [N], the reward of the other response.
        margin: how far the chosen reward must clear the rejected one.

    Returns:
        A scalar: the mean over pairs of -log sigmoid(r_chosen - r_rejected - margin).
    """
    raise NotImplementedError
