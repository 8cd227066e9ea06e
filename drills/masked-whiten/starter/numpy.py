"""Masked advantage whitening in NumPy: write masked_whiten (see prompt.md)."""
import numpy as np


def masked_whiten(advantages, response_mask, shift_mean=True, eps=1e-8):
    """Normalise advantages to mean 0 and variance 1 over the valid tokens of the batch.

    Args:
        advantages: float array [B, T]; padded slots may hold anything.
        response_mask: bool array [B, T], True on the first n_b positions of row b, then False.
        shift_mean: if False, only rescale (the valid tokens keep their mean).
        eps: added to the variance inside the square root.

    Returns:
        whitened: float array [B, T], 0 on padding.
    """
    raise NotImplementedError
