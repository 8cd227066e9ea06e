# expect: whiten-unbiased-variance
# style: np.var with ddof=1
# framework: numpy
import numpy as np


def masked_whiten(advantages, response_mask, shift_mean=True, eps=1e-8):
    vals = advantages[response_mask]
    mean = vals.mean()
    var = np.var(vals, ddof=1)
    out = (advantages - mean) / np.sqrt(var + eps)
    if not shift_mean:
        out = out + mean
    return np.where(response_mask, out, 0.0)
