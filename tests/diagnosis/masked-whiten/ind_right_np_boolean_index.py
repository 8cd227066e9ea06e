# expect: right
# framework: numpy
# style: NumPy, statistics of advantages[mask] (np.var is the population variance)
import numpy as np


def masked_whiten(advantages, response_mask, shift_mean=True, eps=1e-8):
    valid = advantages[response_mask]
    mu = valid.mean()
    var = valid.var()
    w = (valid - mu) / np.sqrt(var + eps)
    if not shift_mean:
        w = w + mu
    out = np.zeros_like(advantages)
    out[response_mask] = w
    return out
