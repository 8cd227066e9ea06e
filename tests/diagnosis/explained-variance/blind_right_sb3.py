# expect: right
# framework: numpy
# style: SB3's explained_variance on the valid entries
import numpy as np


def explained_variance(values, returns, mask=None):
    if values.shape != returns.shape:
        raise ValueError("values and returns differ in shape")
    if mask is None:
        mask = np.ones(values.shape, dtype=bool)
    y_pred = values[mask].astype(np.float64)
    y_true = returns[mask].astype(np.float64)
    var_y = np.var(y_true)
    return np.nan if var_y == 0 else float(1 - np.var(y_true - y_pred) / var_y)
