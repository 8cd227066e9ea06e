# expect: whiten-shift-mean-ignored
# framework: numpy
# style: NumPy np.where formulation, shift_mean unused
import numpy as np


def masked_whiten(advantages, response_mask, shift_mean=True, eps=1e-8):
    m = response_mask.astype(bool)
    x = np.where(m, advantages, 0.0)
    n = m.sum()
    mu = x.sum() / n
    var = np.where(m, (x - mu) ** 2, 0.0).sum() / n
    return np.where(m, (x - mu) / np.sqrt(var + eps), 0.0)
