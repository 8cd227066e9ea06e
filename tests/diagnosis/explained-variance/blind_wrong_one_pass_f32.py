# expect: ev-one-pass-variance
# framework: torch
# style: one-pass moments in the inputs' dtype
import torch


def explained_variance(values, returns, mask=None):
    if values.shape != returns.shape:
        raise ValueError("values and returns differ in shape")
    if mask is None:
        mask = torch.ones_like(values, dtype=torch.bool)
    v = values[mask]
    r = returns[mask]
    var_r = (r * r).mean() - r.mean() ** 2
    d = r - v
    var_d = (d * d).mean() - d.mean() ** 2
    if var_r == 0:
        return float("nan")
    return float(1 - var_d / var_r)
