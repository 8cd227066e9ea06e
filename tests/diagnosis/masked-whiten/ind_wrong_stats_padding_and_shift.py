# expect: whiten-stats-over-padding whiten-shift-mean-ignored
# framework: numpy
# style: NumPy, whole-grid statistics and no shift_mean branch
import numpy as np


def masked_whiten(advantages, response_mask, shift_mean=True, eps=1e-8):
    x = np.where(response_mask, advantages, 0.0)
    w = (x - x.mean()) / np.sqrt(x.var() + eps)
    return np.where(response_mask, w, 0.0)
