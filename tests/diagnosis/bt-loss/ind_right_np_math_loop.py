# expect: right
# framework: numpy
# style: NumPy arrays in, a loop with math.log1p / math.exp per pair
import math

import numpy as np


def _neg_log_sigmoid(x):
    if x >= 0:
        return math.log1p(math.exp(-x))
    return -x + math.log1p(math.exp(x))


def bradley_terry_loss(r_chosen, r_rejected, margin=0.0):
    rc = np.asarray(r_chosen, dtype=float)
    rr = np.asarray(r_rejected, dtype=float)
    if rc.ndim != 1 or rr.shape != rc.shape or rc.size == 0:
        raise ValueError("r_chosen, r_rejected: non-empty 1-D arrays of one shape")
    total = 0.0
    for c, r in zip(rc.tolist(), rr.tolist()):
        total += _neg_log_sigmoid(c - r - margin)
    return total / rc.size
