# expect: ev-r2-not-ev
# framework: numpy
# style: 1 - MSE / Var (the R^2 score)
import numpy as np


def explained_variance(values, returns, mask=None):
    if values.shape != returns.shape:
        raise ValueError("shape mismatch")
    m = np.ones(values.shape, dtype=bool) if mask is None else mask
    r, v = returns[m].astype(float), values[m].astype(float)
    var_r = r.var()
    if var_r == 0:
        return float("nan")
    return float(1.0 - np.mean((r - v) ** 2) / var_r)
