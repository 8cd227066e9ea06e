# expect: whiten-no-eps
# framework: numpy
# style: NumPy boolean selection, np.std without eps
import numpy as np


def masked_whiten(advantages, response_mask, shift_mean=True, eps=1e-8):
    vals = advantages[response_mask]
    mu, sd = vals.mean(), vals.std()
    with np.errstate(invalid="ignore", divide="ignore"):
        w = (vals - mu) / sd
    if not shift_mean:
        w += mu
    out = np.zeros_like(advantages)
    out[response_mask] = w
    return out
