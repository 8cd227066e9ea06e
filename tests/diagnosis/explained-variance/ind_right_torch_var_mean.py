# expect: right
# framework: torch
# style: torch.var_mean(correction=0) on the stacked valid returns and residuals
import torch


def explained_variance(values, returns, mask=None):
    if values.shape != returns.shape:
        raise ValueError("values and returns must have the same shape")
    if mask is not None:
        values, returns = values[mask], returns[mask]
    else:
        values, returns = values.flatten(), returns.flatten()
    stacked = torch.stack([returns, returns - values])
    var, _ = torch.var_mean(stacked, dim=1, correction=0)
    if var[0] == 0:
        return float("nan")
    return float(1 - var[1] / var[0])
