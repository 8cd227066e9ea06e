"""Bradley-Terry reward-model loss in PyTorch: write bradley_terry_loss (see prompt.md)."""
import torch


def bradley_terry_loss(r_chosen, r_rejected, margin=0.0):
    """The reward-model loss on preference pairs.

    Args:
        r_chosen: float tensor [N], the reward of the preferred response of each pair (requires grad).
        r_rejected: float tensor [N], the reward of the other response (requires grad).
        margin: how far the chosen reward must clear the rejected one.

    Returns:
        A 0-d tensor: the mean over pairs of -log sigmoid(r_chosen - r_rejected - margin).
    """
    raise NotImplementedError
