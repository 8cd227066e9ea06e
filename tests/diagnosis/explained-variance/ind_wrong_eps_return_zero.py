# expect: ev-zero-variance-eps
# framework: numpy
# style: NumPy, "nothing explained" returned as 0.0 when Var[R] = 0
import numpy as np


def explained_variance(values, returns, mask=None):
    if values.shape != returns.shape:
        raise ValueError("shape mismatch")
    m = np.ones(values.shape, bool) if mask is None else mask
    r, v = returns[m], values[m]
    var_r = np.var(r)
    if var_r == 0:
        return 0.0
    return float(1 - np.var(r - v) / var_r)
