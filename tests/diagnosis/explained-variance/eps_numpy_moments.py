# expect: ev-zero-variance-eps
# framework: numpy
# style: explicit moments, stabilised denominator
import numpy as np


def explained_variance(values, returns, mask=None):
    if values.shape != returns.shape:
        raise ValueError("shapes")
    sel = np.ones(returns.shape, bool) if mask is None else mask
    r = returns[sel].astype(np.float64)
    res = r - values[sel].astype(np.float64)
    var_r = np.mean((r - r.mean()) ** 2)
    var_res = np.mean((res - res.mean()) ** 2)
    return float(1.0 - var_res / (var_r + 1e-8))
