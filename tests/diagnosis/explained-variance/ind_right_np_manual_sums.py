# expect: right
# framework: numpy
# style: NumPy masked sums with np.where, population variances by hand
import numpy as np


def explained_variance(values, returns, mask=None):
    if np.shape(values) != np.shape(returns):
        raise ValueError("values and returns differ in shape")
    m = np.ones(np.shape(values), dtype=bool) if mask is None else np.asarray(mask, dtype=bool)
    n = m.sum()
    R = np.where(m, returns, 0.0)
    D = np.where(m, returns - np.where(m, values, 0.0), 0.0)
    mean_r = R.sum() / n
    mean_d = D.sum() / n
    var_r = np.where(m, (R - mean_r) ** 2, 0.0).sum() / n
    var_d = np.where(m, (D - mean_d) ** 2, 0.0).sum() / n
    if var_r == 0:
        return float("nan")
    return float(1.0 - var_d / var_r)
