# expect: right
# framework: torch
# style: torch.var (unbiased): the factor cancels
import torch


def explained_variance(values, returns, mask=None):
    if values.shape != returns.shape:
        raise ValueError("values and returns differ in shape")
    if mask is None:
        mask = torch.ones_like(returns, dtype=torch.bool)
    r = returns[mask].double()
    v = values[mask].double()
    if r.numel() < 2 or torch.all(r == r[0]):
        return float("nan")
    return (1 - torch.var(r - v) / torch.var(r)).item()
