# expect: ev-var-values
# framework: torch
# style: Var[V] in the denominator
import torch


def explained_variance(values, returns, mask=None):
    if values.shape != returns.shape:
        raise ValueError("values and returns differ in shape")
    if mask is None:
        mask = torch.ones_like(values, dtype=torch.bool)
    v = values[mask].double()
    r = returns[mask].double()
    var_v = v.var(unbiased=False)
    if r.var(unbiased=False) == 0 or var_v == 0:
        return float("nan")
    return float(1 - (r - v).var(unbiased=False) / var_v)
