"""Explained variance of a critic over the valid tokens of a padded batch: how much of the spread of the
returns its predictions account for."""
import numpy as np


def explained_variance(values, returns, mask=None):
    """1 - Var[R - V] / Var[R] over valid tokens, as a float; NaN when the returns have no spread."""
    if values.shape != returns.shape:
        raise ValueError("values and returns must have the same shape")
    if mask is None:
        mask = np.ones(returns.shape, dtype=bool)

    # Select the valid tokens first: padding may hold NaN or inf.
    v = values[mask]
    r = returns[mask]
    residual = r - v

    var_returns = (r ** 2).mean() - r.mean() ** 2
    var_residual = residual.var()
    # Returns without spread leave nothing to explain: the ratio is undefined.
    if var_returns == 0:
        return float("nan")
    return float(1.0 - var_residual / var_returns)
