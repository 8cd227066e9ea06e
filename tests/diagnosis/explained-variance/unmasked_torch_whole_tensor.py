# expect: ev-unmasked
# framework: torch
# style: statistics of the whole [B, T] tensors
import torch


def explained_variance(values, returns, mask=None):
    if values.shape != returns.shape:
        raise ValueError("values and returns must have the same shape")
    r = returns.double()
    v = values.double()
    var_r = torch.var(r, unbiased=False)
    if var_r == 0:
        return float("nan")
    return (1.0 - torch.var(r - v, unbiased=False) / var_r).item()
