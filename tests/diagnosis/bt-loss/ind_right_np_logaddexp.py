# expect: right
# framework: numpy
# style: NumPy np.logaddexp(0, -x)
import numpy as np


def bradley_terry_loss(r_chosen, r_rejected, margin=0.0):
    r_chosen = np.asarray(r_chosen)
    r_rejected = np.asarray(r_rejected)
    if r_chosen.ndim != 1 or r_chosen.shape != r_rejected.shape or r_chosen.size == 0:
        raise ValueError("need two non-empty 1-D arrays of the same shape")
    x = r_chosen - r_rejected - margin
    return float(np.mean(np.logaddexp(0.0, -x)))
