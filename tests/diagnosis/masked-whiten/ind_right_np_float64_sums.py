# expect: right
# framework: numpy
# style: NumPy, running sums in float64 (sum, sum of squares), cast back
import numpy as np


def masked_whiten(advantages, response_mask, shift_mean=True, eps=1e-8):
    m = np.asarray(response_mask, dtype=bool)
    x = np.where(m, advantages, 0.0).astype(np.float64)
    n = m.sum()
    mean = x.sum() / n
    centred = np.where(m, x - mean, 0.0)
    var = (centred * centred).sum() / n
    scale = 1.0 / np.sqrt(var + eps)
    out = centred * scale
    if not shift_mean:
        out = np.where(m, out + mean, 0.0)
    return out.astype(advantages.dtype)
