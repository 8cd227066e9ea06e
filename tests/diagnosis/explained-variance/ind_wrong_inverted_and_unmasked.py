# expect: ev-ratio-inverted ev-unmasked
# framework: numpy
# style: NumPy, whole arrays and the ratio the other way round
import numpy as np


def explained_variance(values, returns, mask=None):
    if values.shape != returns.shape:
        raise ValueError("shape mismatch")
    with np.errstate(all="ignore"):
        var_r = np.var(returns)
        if var_r == 0:
            return float("nan")
        return float(1 - var_r / np.var(returns - values))
