# expect: right
# framework: numpy
# style: plain Python floats over the valid pairs (statistics module style)
import math

import numpy as np


def explained_variance(values, returns, mask=None):
    if values.shape != returns.shape:
        raise ValueError("values and returns must match")
    flat_v = values.ravel().tolist()
    flat_r = returns.ravel().tolist()
    keep = [True] * len(flat_v) if mask is None else np.asarray(mask).ravel().tolist()
    pairs = [(v, r) for v, r, k in zip(flat_v, flat_r, keep) if k]
    n = len(pairs)
    mr = sum(r for _, r in pairs) / n
    res = [r - v for v, r in pairs]
    mres = sum(res) / n
    var_r = sum((r - mr) ** 2 for _, r in pairs) / n
    var_res = sum((e - mres) ** 2 for e in res) / n
    if var_r == 0:
        return math.nan
    return 1.0 - var_res / var_r
