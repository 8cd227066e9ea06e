# expect: ev-var-values
# framework: torch
# style: normalised by the critic's own spread
import torch


def explained_variance(values, returns, mask=None):
    if values.shape != returns.shape:
        raise ValueError("values and returns shapes differ")
    if mask is None:
        mask = torch.ones(values.shape, dtype=torch.bool)
    v = values[mask].double()
    r = returns[mask].double()
    var_v = v.var(unbiased=False)
    if var_v == 0:
        return float("nan")
    return float(1 - (r - v).var(unbiased=False) / var_v)
