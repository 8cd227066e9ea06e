# expect: ev-zero-variance-eps
# framework: torch
# style: epsilon in the denominator, no special case
import torch


def explained_variance(values, returns, mask=None):
    if values.shape != returns.shape:
        raise ValueError("values and returns differ in shape")
    if mask is None:
        mask = torch.ones(returns.shape, dtype=torch.bool)
    r = returns[mask].to(torch.float64)
    d = r - values[mask].to(torch.float64)
    eps = 1e-8
    return float(1.0 - d.var(unbiased=False) / (r.var(unbiased=False) + eps))
