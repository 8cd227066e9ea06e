# expect: ev-r2-not-ev
# framework: torch
# style: SS_res / SS_tot
import torch


def explained_variance(values, returns, mask=None):
    if values.shape != returns.shape:
        raise ValueError("values and returns must have the same shape")
    mask = torch.ones(returns.shape, dtype=torch.bool) if mask is None else mask
    r, v = returns[mask].double(), values[mask].double()
    ss_tot = ((r - r.mean()) ** 2).sum()
    if ss_tot == 0:
        return float("nan")
    ss_res = ((r - v) ** 2).sum()
    return (1 - ss_res / ss_tot).item()
