# expect: right
# framework: numpy
# style: SB3 explained_variance(y_pred, y_true) on the masked selection
import numpy as np


def explained_variance(values, returns, mask=None):
    if values.shape != returns.shape:
        raise ValueError(f"shape mismatch: {values.shape} vs {returns.shape}")
    if mask is None:
        mask = np.ones(values.shape, dtype=bool)
    y_pred = values[mask]
    y_true = returns[mask]
    var_y = np.var(y_true)
    return np.nan if var_y == 0 else float(1 - np.var(y_true - y_pred) / var_y)
