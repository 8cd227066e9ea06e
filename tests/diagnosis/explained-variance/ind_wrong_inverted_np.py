# expect: ev-ratio-inverted
# framework: numpy
# style: NumPy, 1 - Var[R] / Var[R - V]
import numpy as np


def explained_variance(values, returns, mask=None):
    if values.shape != returns.shape:
        raise ValueError("shape mismatch")
    m = np.ones(values.shape, bool) if mask is None else mask
    r, v = returns[m], values[m]
    var_r = np.var(r)
    if var_r == 0:
        return float("nan")
    with np.errstate(divide="ignore", invalid="ignore"):
        return float(1.0 - var_r / np.var(r - v))
