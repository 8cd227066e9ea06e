# expect: ev-ratio-inverted
# framework: numpy
# style: SB3 shape with the fraction flipped
import numpy as np


def explained_variance(values, returns, mask=None):
    if values.shape != returns.shape:
        raise ValueError("shape mismatch")
    m = np.ones(returns.shape, bool) if mask is None else mask
    y, p = returns[m].astype(float), values[m].astype(float)
    var_y = np.var(y)
    if var_y == 0:
        return float("nan")
    with np.errstate(divide="ignore"):
        return float(1 - var_y / np.var(y - p))
