# expect: ev-var-values
# framework: torch
# style: an SB3-style helper (y_pred, y_true) called with the arguments the other way round
import torch


def _ev(y_pred, y_true):
    var_y = torch.var(y_true, unbiased=False)
    return float("nan") if var_y == 0 else float(1 - torch.var(y_true - y_pred, unbiased=False) / var_y)


def explained_variance(values, returns, mask=None):
    if values.shape != returns.shape:
        raise ValueError("shape mismatch")
    if mask is None:
        mask = torch.ones_like(values, dtype=torch.bool)
    v, r = values[mask], returns[mask]
    if torch.var(r, unbiased=False) == 0:
        return float("nan")
    return _ev(r, v)
