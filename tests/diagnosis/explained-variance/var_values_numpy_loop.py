# expect: ev-var-values
# framework: numpy
# style: explicit moments of the predictions
import numpy as np


def explained_variance(values, returns, mask=None):
    if values.shape != returns.shape:
        raise ValueError("shapes")
    keep = np.ones(values.shape, bool) if mask is None else mask
    v = values[keep].astype(np.float64)
    res = returns[keep].astype(np.float64) - v
    denom = np.mean((v - v.mean()) ** 2)
    if denom == 0:
        return float("nan")
    return float(1.0 - np.mean((res - res.mean()) ** 2) / denom)
