# expect: ev-zero-variance-eps
# framework: torch
# style: verl's logged metric, Var[R] + 1e-5
import torch


def explained_variance(values, returns, mask=None):
    if values.shape != returns.shape:
        raise ValueError("shape mismatch")
    if mask is None:
        mask = torch.ones_like(values, dtype=torch.bool)
    r, v = returns[mask], values[mask]
    var_returns = torch.var(r, unbiased=False)
    var_diff = torch.var(r - v, unbiased=False)
    return (1.0 - var_diff / (var_returns + 1e-5)).item()
