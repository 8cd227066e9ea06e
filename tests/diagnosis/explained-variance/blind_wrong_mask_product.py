# expect: mask-multiplied
# framework: torch
# style: sums of masked products (padding NaN leaks in)
import torch


def explained_variance(values, returns, mask=None):
    if values.shape != returns.shape:
        raise ValueError("values and returns differ in shape")
    if mask is None:
        mask = torch.ones_like(values, dtype=torch.bool)
    m = mask.double()
    n = m.sum()
    r = returns.double()
    d = r - values.double()
    mr = (r * m).sum() / n
    md = (d * m).sum() / n
    var_r = (((r - mr) ** 2) * m).sum() / n
    var_d = (((d - md) ** 2) * m).sum() / n
    if var_r == 0:
        return float("nan")
    return float(1 - var_d / var_r)
