# expect: ev-unmasked
# framework: torch
# style: padding zero-filled, then variances over all B*T slots
import torch


def explained_variance(values, returns, mask=None):
    if values.shape != returns.shape:
        raise ValueError("shape mismatch")
    if mask is None:
        mask = torch.ones_like(values, dtype=torch.bool)
    v = torch.where(mask, values, torch.zeros_like(values))
    r = torch.where(mask, returns, torch.zeros_like(returns))
    var_r = r.var(unbiased=False)
    if var_r == 0:
        return float("nan")
    return float(1 - (r - v).var(unbiased=False) / var_r)
