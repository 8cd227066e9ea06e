# expect: ev-ratio-inverted
# framework: torch
# style: torch, the residual variance in the denominator
import torch


def explained_variance(values, returns, mask=None):
    if values.shape != returns.shape:
        raise ValueError("values/returns shapes differ")
    if mask is None:
        mask = torch.ones(returns.shape, dtype=torch.bool)
    r, v = returns[mask].double(), values[mask].double()
    var_r = r.var(unbiased=False)
    if var_r == 0:
        return float("nan")
    var_err = (r - v).var(unbiased=False)
    return float(1 - var_r / var_err)
