# expect: std-bessel-correction
# framework: torch
import torch


def explained_variance(values, returns, mask=None):
    if values.shape != returns.shape:
        raise ValueError("shape mismatch")
    m = torch.ones_like(values, dtype=torch.bool) if mask is None else mask
    r, v = returns[m], values[m]
    var_r = torch.var(r, unbiased=False)
    if var_r == 0:
        return float("nan")
    return float(1 - torch.var(r - v) / var_r)
