"""Explained variance: write explained_variance (see prompt.md)."""
import numpy as np


def explained_variance(values, returns, mask=None):
    """How much of the returns' variance the critic's values explain, over valid tokens.

    Args:
        values: float array [B, T], the critic's predictions V (float32 or float64).
        returns: float array [B, T], the return targets R.
        mask: bool array [B, T], True on valid tokens (right padding), or None for all valid.
            Padded slots of values and returns may hold anything, NaN and inf included.

    Returns:
        A float: 1 - Var[R - V] / Var[R] over the valid tokens, or NaN when Var[R] == 0.

    Raises:
        ValueError: when values and returns have different shapes.
    """
    raise NotImplementedError
