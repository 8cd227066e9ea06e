# expect: right
# framework: numpy
# style: plain loops collecting valid pairs
import math

import numpy as np


def explained_variance(values, returns, mask=None):
    if np.shape(values) != np.shape(returns):
        raise ValueError("values and returns must match")
    pairs = []
    B, T = returns.shape
    for b in range(B):
        for t in range(T):
            if mask is None or mask[b, t]:
                pairs.append((float(values[b, t]), float(returns[b, t])))
    n = len(pairs)
    mean_r = sum(r for _, r in pairs) / n
    mean_d = sum(r - v for v, r in pairs) / n
    var_r = sum((r - mean_r) ** 2 for _, r in pairs) / n
    var_d = sum((r - v - mean_d) ** 2 for v, r in pairs) / n
    if var_r == 0:
        return math.nan
    return 1.0 - var_d / var_r
