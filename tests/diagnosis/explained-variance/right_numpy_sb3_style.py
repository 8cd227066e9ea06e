# expect: right
# framework: numpy
# style: SB3 explained_variance on the masked entries
import numpy as np


def explained_variance(values, returns, mask=None):
    if values.shape != returns.shape:
        raise ValueError("shape mismatch")
    if mask is not None:
        y_pred, y_true = values[mask], returns[mask]
    else:
        y_pred, y_true = values.ravel(), returns.ravel()
    var_y = np.var(y_true)
    return np.nan if var_y == 0 else float(1 - np.var(y_true - y_pred) / var_y)
