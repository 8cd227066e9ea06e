# expect: whiten-padding-nonzero
# framework: numpy
# style: NumPy, statistics from the valid tokens, applied to the whole grid
import numpy as np


def masked_whiten(advantages, response_mask, shift_mean=True, eps=1e-8):
    v = advantages[response_mask]
    mean = v.mean()
    std = np.sqrt(v.var() + eps)
    with np.errstate(all="ignore"):
        out = (advantages - mean) / std
    if not shift_mean:
        out = out + mean
    return out
