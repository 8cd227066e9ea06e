# expect: right
# framework: torch
# style: torch.var (unbiased) for both, the factor cancels
import torch


def explained_variance(values, returns, mask=None):
    if values.shape != returns.shape:
        raise ValueError("values and returns differ in shape")
    if mask is None:
        mask = torch.ones_like(values, dtype=torch.bool)
    v = values[mask].double()
    r = returns[mask].double()
    if r.numel() < 2:
        return float("nan")
    var_r = torch.var(r)
    if var_r == 0:
        return float("nan")
    return (1 - torch.var(r - v) / var_r).item()
