# expect: ev-var-values
# framework: numpy
# style: SB3 helper called with its arguments swapped
import numpy as np


def _ev(y_pred, y_true):
    var_y = np.var(y_true)
    return np.nan if var_y == 0 else 1 - np.var(y_true - y_pred) / var_y


def explained_variance(values, returns, mask=None):
    if values.shape != returns.shape:
        raise ValueError("shape mismatch")
    m = np.ones(values.shape, dtype=bool) if mask is None else mask
    return float(_ev(returns[m].astype(float), values[m].astype(float)))
