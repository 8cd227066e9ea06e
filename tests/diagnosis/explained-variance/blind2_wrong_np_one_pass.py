# expect: ev-one-pass-variance
# framework: numpy
# style: one-pass moments in NumPy, inputs' dtype
import numpy as np


def explained_variance(values, returns, mask=None):
    if values.shape != returns.shape:
        raise ValueError("shapes")
    m = np.ones(values.shape, dtype=bool) if mask is None else mask
    r, v = returns[m], values[m]
    d = r - v
    var_r = np.mean(r * r) - np.mean(r) ** 2
    if var_r == 0:
        return float("nan")
    return float(1 - (np.mean(d * d) - np.mean(d) ** 2) / var_r)
