# expect:
# expect-unnamed: eps of the std form taken as sqrt(var) + sqrt(eps) (1e-4 added to the std)
# framework: numpy
import numpy as np


def masked_whiten(advantages, response_mask, shift_mean=True, eps=1e-8):
    v = advantages[response_mask]
    mu = v.mean()
    w = (v - mu) / (v.std() + np.sqrt(eps))
    if not shift_mean:
        w = w + mu
    out = np.zeros_like(advantages)
    out[response_mask] = w
    return out
