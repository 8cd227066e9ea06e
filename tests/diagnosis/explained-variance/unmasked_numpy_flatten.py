# expect: ev-unmasked
# framework: numpy
# style: mask accepted but never applied
import numpy as np


def explained_variance(values, returns, mask=None):
    if values.shape != returns.shape:
        raise ValueError("shape mismatch")
    y, p = returns.ravel().astype(float), values.ravel().astype(float)
    with np.errstate(all="ignore"):
        var_y = np.var(y)
        if var_y == 0:
            return float("nan")
        return float(1 - np.var(y - p) / var_y)
