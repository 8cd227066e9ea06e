# expect: ev-ratio-inverted
# framework: torch
# style: torch, residual variance in the denominator
import torch


def explained_variance(values, returns, mask=None):
    if values.shape != returns.shape:
        raise ValueError("shape mismatch")
    if mask is not None:
        values, returns = values[mask], returns[mask]
    var_y = returns.var(unbiased=False)
    if var_y == 0:
        return float("nan")
    var_res = (returns - values).var(unbiased=False)
    return (1 - var_y / var_res).item()
