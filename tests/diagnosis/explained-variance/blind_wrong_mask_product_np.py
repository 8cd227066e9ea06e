# expect: mask-multiplied
# framework: numpy
# style: weights from the float mask, NaN padding multiplied by 0
import numpy as np


def explained_variance(values, returns, mask=None):
    if values.shape != returns.shape:
        raise ValueError("values and returns differ in shape")
    w = np.ones(values.shape) if mask is None else mask.astype(np.float64)
    n = w.sum()
    r = returns.astype(np.float64)
    d = r - values.astype(np.float64)
    mean_r = (r * w).sum() / n
    mean_d = (d * w).sum() / n
    var_r = (w * (r - mean_r) ** 2).sum() / n
    if var_r == 0:
        return float("nan")
    return float(1 - (w * (d - mean_d) ** 2).sum() / n / var_r)
