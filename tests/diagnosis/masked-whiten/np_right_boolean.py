# expect: right
# style: statistics of adv[mask], np.var (population)
# framework: numpy
import numpy as np


def masked_whiten(advantages, response_mask, shift_mean=True, eps=1e-8):
    vals = advantages[response_mask]
    mean, var = vals.mean(), vals.var()
    out = (advantages - mean) / np.sqrt(var + eps)
    if not shift_mean:
        out = out + mean
    return np.where(response_mask, out, 0.0)
