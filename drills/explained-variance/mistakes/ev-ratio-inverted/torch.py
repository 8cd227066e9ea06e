"""Explained variance of a critic over the valid tokens of a padded batch: how much of the spread of the
returns its predictions account for."""
import torch


def explained_variance(values, returns, mask=None):
    """1 - Var[R - V] / Var[R] over valid tokens, as a float; NaN when the returns have no spread."""
    if values.shape != returns.shape:
        raise ValueError("values and returns must have the same shape")
    if mask is None:
        mask = torch.ones(returns.shape, dtype=torch.bool)

    # Select the valid tokens first: padding may hold NaN or inf.
    v = values[mask].to(torch.float64)
    r = returns[mask].to(torch.float64)
    residual = r - v

    var_returns = r.var(unbiased=False)
    var_residual = residual.var(unbiased=False)
    # Returns without spread leave nothing to explain: the ratio is undefined.
    if var_returns == 0:
        return float("nan")
    return float(1.0 - var_returns / var_residual)
