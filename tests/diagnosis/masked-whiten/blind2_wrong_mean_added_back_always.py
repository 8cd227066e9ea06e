# expect: whiten-mean-handling
# known-unnamed: the mean added back in both modes; the planted re-add keeps the solution's own shift_mean branch, so with shift_mean=False it adds the mean twice
# framework: numpy
# style: the mean added back whatever shift_mean says
import numpy as np


def masked_whiten(advantages, response_mask, shift_mean=True, eps=1e-8):
    v = advantages[response_mask]
    mean = v.mean()
    var = ((v - mean) ** 2).mean()
    out = np.zeros_like(advantages)
    out[response_mask] = (v - mean) / np.sqrt(var + eps) + mean
    return out
