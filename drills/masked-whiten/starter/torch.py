"""Masked advantage whitening in PyTorch: write masked_whiten (see prompt.md)."""
import torch


def masked_whiten(advantages, response_mask, shift_mean=True, eps=1e-8):
    """Normalise advantages to mean 0 and variance 1 over the valid tokens of the batch.

    Args:
        advantages: float tensor [B, T]; padded slots may hold anything.
        response_mask: bool tensor [B, T], True on the first n_b positions of row b, then False.
        shift_mean: if False, only rescale (the valid tokens keep their mean).
        eps: added to the variance inside the square root.

    Returns:
        whitened: float tensor [B, T], 0 on padding.
    """
    raise NotImplementedError
