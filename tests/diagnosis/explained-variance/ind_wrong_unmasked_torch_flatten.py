# expect: ev-unmasked
# framework: torch
# style: torch, flatten everything (mask only used to decide "no mask")
import torch


def explained_variance(values, returns, mask=None):
    if values.shape != returns.shape:
        raise ValueError("shape mismatch")
    y_true = returns.flatten()
    y_pred = values.flatten()
    var_y = torch.var(y_true)
    if var_y == 0:
        return float("nan")
    return (1 - torch.var(y_true - y_pred) / var_y).item()
