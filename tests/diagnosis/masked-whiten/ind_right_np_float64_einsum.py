# expect: right
# framework: numpy
# style: NumPy, one-pass sums (sum x, sum x^2) in float64 on the selected tokens
import numpy as np


def masked_whiten(advantages, response_mask, shift_mean=True, eps=1e-8):
    m = response_mask.astype(bool)
    x = advantages[m].astype(np.float64)
    n = x.size
    mean = x.sum() / n
    var = max((x * x).sum() / n - mean * mean, 0.0)
    if var < 1e-12 * max(1.0, mean * mean):
        var = ((x - mean) ** 2).sum() / n   # two-pass when the one-pass form cancels
    w = (x - mean) / np.sqrt(var + eps)
    if not shift_mean:
        w = w + mean
    out = np.zeros(advantages.shape, dtype=advantages.dtype)
    out[m] = w
    return out
