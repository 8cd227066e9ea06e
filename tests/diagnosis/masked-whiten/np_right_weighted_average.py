# expect: right
# style: np.average with the mask as weights
# framework: numpy
import numpy as np


def masked_whiten(advantages, response_mask, shift_mean=True, eps=1e-8):
    clean = np.where(response_mask, advantages, 0.0)
    w = response_mask.astype(float)
    mean = np.average(clean, weights=w)
    var = np.average((clean - mean) ** 2, weights=w)
    z = (clean - mean) / np.sqrt(var + eps)
    if not shift_mean:
        z = z + mean
    return np.where(response_mask, z, 0.0)
