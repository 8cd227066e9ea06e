# expect: right
# framework: torch
# style: boolean selection, torch.var(unbiased=False)
import torch


def explained_variance(values, returns, mask=None):
    if values.shape != returns.shape:
        raise ValueError("values and returns must have the same shape")
    if mask is None:
        mask = torch.ones_like(values, dtype=torch.bool)
    v, r = values[mask], returns[mask]
    var_r = torch.var(r, unbiased=False)
    if var_r == 0:
        return float("nan")
    return (1 - torch.var(r - v, unbiased=False) / var_r).item()
