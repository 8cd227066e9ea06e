# expect: ev-var-values
# framework: torch
# style: torch, "share of the prediction's variance"
import torch


def explained_variance(values, returns, mask=None):
    if values.shape != returns.shape:
        raise ValueError("shape mismatch")
    m = torch.ones_like(values, dtype=torch.bool) if mask is None else mask
    v, r = values[m].double(), returns[m].double()
    if r.var(unbiased=False) == 0:
        return float("nan")
    return (1.0 - (r - v).var(unbiased=False) / v.var(unbiased=False)).item()
