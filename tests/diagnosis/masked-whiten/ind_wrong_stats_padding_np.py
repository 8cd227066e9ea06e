# expect: whiten-stats-over-padding
# framework: numpy
# style: NumPy, nan_to_num on the raw grid and np.mean / np.var over all B*T slots
import numpy as np


def masked_whiten(advantages, response_mask, shift_mean=True, eps=1e-8):
    x = np.nan_to_num(advantages, nan=0.0, posinf=0.0, neginf=0.0)
    x = np.where(response_mask, x, 0.0)
    mu = np.mean(x)
    var = np.var(x)
    w = (x - mu) / np.sqrt(var + eps)
    if not shift_mean:
        w = w + mu
    return np.where(response_mask, w, 0.0)
