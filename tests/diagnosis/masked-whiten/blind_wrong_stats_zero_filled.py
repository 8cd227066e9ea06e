# expect: whiten-stats-over-padding
# framework: numpy
# style: statistics over every slot after zero-filling
import numpy as np


def masked_whiten(advantages, response_mask, shift_mean=True, eps=1e-8):
    a = np.where(response_mask, advantages, 0.0)
    mean = a.mean()
    var = a.var()
    out = (a - mean) / np.sqrt(var + eps)
    if not shift_mean:
        out = out + mean
    return np.where(response_mask, out, 0.0)
