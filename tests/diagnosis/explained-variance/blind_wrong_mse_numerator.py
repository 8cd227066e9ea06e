# expect: ev-r2-not-ev
# framework: numpy
# style: R^2 with the mean squared error
import numpy as np


def explained_variance(values, returns, mask=None):
    if values.shape != returns.shape:
        raise ValueError("values and returns differ in shape")
    if mask is None:
        mask = np.ones(values.shape, dtype=bool)
    v = values[mask].astype(np.float64)
    r = returns[mask].astype(np.float64)
    if r.var() == 0:
        return float("nan")
    return float(1 - np.mean((r - v) ** 2) / r.var())
