# expect: whiten-unbiased-variance
# framework: numpy
# style: np.var(ddof=1) of the valid tokens
import numpy as np


def masked_whiten(advantages, response_mask, shift_mean=True, eps=1e-8):
    v = advantages[response_mask]
    mean = v.mean()
    var = v.var(ddof=1) if v.size > 1 else 0.0
    out = np.zeros_like(advantages)
    w = (v - mean) / np.sqrt(var + eps)
    out[response_mask] = w if shift_mean else w + mean
    return out
