# expect: ev-r2-not-ev
# framework: torch
# style: F.mse_loss(values, returns) over the returns' variance
import torch
import torch.nn.functional as F


def explained_variance(values, returns, mask=None):
    if values.shape != returns.shape:
        raise ValueError("shape mismatch")
    m = torch.ones(values.shape, dtype=torch.bool) if mask is None else mask
    v, r = values[m], returns[m]
    var_r = r.var(unbiased=False)
    if var_r == 0:
        return float("nan")
    return float(1.0 - F.mse_loss(v, r) / var_r)
