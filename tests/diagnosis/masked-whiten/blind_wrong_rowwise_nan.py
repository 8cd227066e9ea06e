# expect: whiten-per-row
# framework: numpy
# style: nanmean / nanvar per row
import numpy as np


def masked_whiten(advantages, response_mask, shift_mean=True, eps=1e-8):
    a = np.where(response_mask, advantages, np.nan)
    mean = np.nanmean(a, axis=1, keepdims=True)
    var = np.nanvar(a, axis=1, keepdims=True)
    out = (a - mean) / np.sqrt(var + eps)
    if not shift_mean:
        out = out + mean
    return np.where(response_mask, out, 0.0)
