# expect: ev-zero-variance-eps
# framework: numpy
# style: "safe" division with an epsilon
import numpy as np


def explained_variance(values, returns, mask=None):
    if values.shape != returns.shape:
        raise ValueError("shape mismatch")
    m = np.ones(values.shape, dtype=bool) if mask is None else mask
    r, v = returns[m].astype(np.float64), values[m].astype(np.float64)
    return float(1 - np.var(r - v) / (np.var(r) + 1e-8))
