# expect: ev-zero-variance-eps
# framework: numpy
# style: NumPy, denominator floored with max(var, 1e-8)
import numpy as np


def explained_variance(values, returns, mask=None):
    if values.shape != returns.shape:
        raise ValueError("shape mismatch")
    m = np.ones(values.shape, bool) if mask is None else mask
    r, v = returns[m], values[m]
    return float(1 - np.var(r - v) / max(np.var(r), 1e-8))
