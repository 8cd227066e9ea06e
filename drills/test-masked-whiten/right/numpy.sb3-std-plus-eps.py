import numpy as np


def masked_whiten(advantages, response_mask, shift_mean=True, eps=1e-8):
    valid = np.asarray(advantages, dtype=np.float64)[response_mask]
    mean, std = valid.mean(), valid.std()
    out = (np.where(response_mask, advantages, 0.0) - mean) / (std + eps)
    if not shift_mean:
        out = out + mean
    return np.where(response_mask, out, 0.0)
