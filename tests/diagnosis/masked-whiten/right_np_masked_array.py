# expect: right
# framework: numpy
# style: NumPy masked arrays (np.ma), filled with 0
import numpy as np


def masked_whiten(advantages, response_mask, shift_mean=True, eps=1e-8):
    safe = np.where(response_mask, advantages, 0.0)
    a = np.ma.masked_array(safe, mask=~response_mask)
    mean = a.mean()
    var = ((a - mean) ** 2).mean()
    w = (a - mean) / np.sqrt(var + eps)
    if not shift_mean:
        w = w + mean
    return np.ma.filled(w, 0.0).astype(advantages.dtype)
