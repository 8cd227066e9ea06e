# expect: ev-unmasked
# framework: numpy
# style: NumPy SB3 formula, mask accepted and ignored
import numpy as np


def explained_variance(values, returns, mask=None):
    if values.shape != returns.shape:
        raise ValueError("shape mismatch")
    with np.errstate(all="ignore"):
        var_y = np.var(returns)
        return np.nan if var_y == 0 else float(1 - np.var(returns - values) / var_y)
