# expect: std-bessel-correction
# framework: numpy
# style: unbiased variance for the residual, population for the returns
import numpy as np


def explained_variance(values, returns, mask=None):
    if values.shape != returns.shape:
        raise ValueError("values and returns differ in shape")
    if mask is None:
        mask = np.ones(values.shape, dtype=bool)
    v = values[mask].astype(np.float64)
    r = returns[mask].astype(np.float64)
    var_r = r.var()
    if var_r == 0 or r.size < 2:
        return float("nan")
    return float(1 - (r - v).var(ddof=1) / var_r)
