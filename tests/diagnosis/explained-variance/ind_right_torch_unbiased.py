# expect: right
# framework: torch
# style: unbiased variances on both sides (the factor cancels), float64 upcast
import torch


def explained_variance(values, returns, mask=None):
    if tuple(values.shape) != tuple(returns.shape):
        raise ValueError("shape mismatch")
    m = torch.ones(values.shape, dtype=torch.bool) if mask is None else mask.bool()
    y = returns[m].double()
    yhat = values[m].double()
    if y.numel() < 2:
        return float("nan")
    vy = y.var()
    if vy == 0:
        return float("nan")
    return float(1.0 - (y - yhat).var() / vy)
