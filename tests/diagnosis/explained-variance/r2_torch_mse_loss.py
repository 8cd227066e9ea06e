# expect: ev-r2-not-ev
# framework: torch
# style: F.mse_loss as the numerator
import torch
import torch.nn.functional as F


def explained_variance(values, returns, mask=None):
    if values.shape != returns.shape:
        raise ValueError("bad shapes")
    if mask is None:
        mask = torch.ones(values.shape, dtype=torch.bool)
    r, v = returns[mask].double(), values[mask].double()
    var_r = r.var(unbiased=False)
    if var_r == 0:
        return float("nan")
    return float(1 - F.mse_loss(v, r) / var_r)
