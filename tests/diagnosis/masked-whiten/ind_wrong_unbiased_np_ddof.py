# expect: whiten-unbiased-variance
# framework: numpy
# style: NumPy, np.var(..., ddof=1) "sample variance"
import numpy as np


def masked_whiten(advantages, response_mask, shift_mean=True, eps=1e-8):
    v = advantages[response_mask]
    mu = v.mean()
    with np.errstate(all="ignore"):
        var = np.var(v, ddof=1)
        w = (v - mu) / np.sqrt(var + eps)
    if not shift_mean:
        w = w + mu
    out = np.zeros_like(advantages)
    out[response_mask] = w
    return out
