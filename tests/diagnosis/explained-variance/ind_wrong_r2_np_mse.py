# expect: ev-r2-not-ev
# framework: numpy
# style: NumPy, 1 - MSE / Var[R]
import numpy as np


def explained_variance(values, returns, mask=None):
    if values.shape != returns.shape:
        raise ValueError("shape mismatch")
    m = np.ones(values.shape, bool) if mask is None else mask
    v, r = values[m], returns[m]
    var_r = r.var()
    if var_r == 0:
        return float("nan")
    return float(1 - np.mean((r - v) ** 2) / var_r)
