# expect: ev-zero-variance-eps
# framework: numpy
# style: verl's logged value, Var[R] + 1e-5
import numpy as np


def explained_variance(values, returns, mask=None):
    if values.shape != returns.shape:
        raise ValueError("values and returns differ in shape")
    if mask is None:
        mask = np.ones(values.shape, dtype=bool)
    v = values[mask].astype(np.float64)
    r = returns[mask].astype(np.float64)
    return float(1 - np.var(r - v) / (np.var(r) + 1e-5))
