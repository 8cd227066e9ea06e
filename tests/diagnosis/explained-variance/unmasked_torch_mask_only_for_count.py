# expect: ev-unmasked
# framework: torch
# style: means and variances over every position, reshape(-1)
import torch


def explained_variance(values, returns, mask=None):
    if values.shape != returns.shape:
        raise ValueError("shape")
    r = returns.reshape(-1).to(torch.float64)
    d = r - values.reshape(-1).to(torch.float64)
    var_r = ((r - r.mean()) ** 2).mean()
    var_d = ((d - d.mean()) ** 2).mean()
    if var_r == 0:
        return float("nan")
    return float(1 - var_d / var_r)
