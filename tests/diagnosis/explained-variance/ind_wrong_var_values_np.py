# expect: ev-var-values
# framework: numpy
# style: NumPy, Var[V] in the denominator
import numpy as np


def explained_variance(values, returns, mask=None):
    if values.shape != returns.shape:
        raise ValueError("shape mismatch")
    m = np.ones(values.shape, bool) if mask is None else mask
    v, r = values[m], returns[m]
    if np.var(r) == 0:
        return float("nan")
    with np.errstate(divide="ignore", invalid="ignore"):
        return float(1 - np.var(r - v) / np.var(v))
