# expect: ev-ratio-inverted
# framework: numpy
# style: explicit moments, numerator and denominator exchanged
import numpy as np


def explained_variance(values, returns, mask=None):
    if values.shape != returns.shape:
        raise ValueError("bad shapes")
    sel = np.ones(returns.shape, dtype=bool) if mask is None else mask
    r = returns[sel].astype(np.float64)
    e = r - values[sel].astype(np.float64)
    var_r = ((r - r.mean()) ** 2).mean()
    var_e = ((e - e.mean()) ** 2).mean()
    if var_r == 0:
        return float("nan")
    with np.errstate(divide="ignore", invalid="ignore"):
        return float(1.0 - var_r / var_e)
