# expect: whiten-stats-over-padding
# style: np.mean / np.var of the whole array
# framework: numpy
import numpy as np


def masked_whiten(advantages, response_mask, shift_mean=True, eps=1e-8):
    mu = np.mean(advantages)
    var = np.var(advantages)
    z = (advantages - mu) / np.sqrt(var + eps)
    if not shift_mean:
        z += mu
    return np.where(response_mask, z, 0.0)
