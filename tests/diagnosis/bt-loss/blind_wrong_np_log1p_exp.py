# expect: bt-log-of-sigmoid
# framework: numpy
# style: log1p(exp(-gap)), which overflows at large negative gaps
import numpy as np


def bradley_terry_loss(r_chosen, r_rejected, margin=0.0):
    r_chosen = np.asarray(r_chosen, dtype=np.float64)
    r_rejected = np.asarray(r_rejected, dtype=np.float64)
    if r_chosen.shape != r_rejected.shape or r_chosen.ndim != 1 or r_chosen.size == 0:
        raise ValueError("need two 1-D arrays of one shape")
    gap = r_chosen - r_rejected - margin
    with np.errstate(over="ignore"):
        return float(np.mean(np.log1p(np.exp(-gap))))
