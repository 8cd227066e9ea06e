# expect: right
# framework: numpy
# style: CleanRL logging: y_pred, y_true flattened, np.nan when var_y == 0
import numpy as np


def explained_variance(values, returns, mask=None):
    if values.shape != returns.shape:
        raise ValueError("shape")
    y_pred, y_true = values.reshape(-1), returns.reshape(-1)
    if mask is not None:
        keep = mask.reshape(-1)
        y_pred, y_true = y_pred[keep], y_true[keep]
    var_y = np.var(y_true)
    explained_var = np.nan if var_y == 0 else 1 - np.var(y_true - y_pred) / var_y
    return explained_var
