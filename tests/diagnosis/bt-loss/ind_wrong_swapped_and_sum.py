# expect: bt-chosen-rejected-swapped bt-sum-over-pairs
# framework: numpy
# style: NumPy, reversed gap and a sum
import numpy as np


def bradley_terry_loss(r_chosen, r_rejected, margin=0.0):
    if r_chosen.ndim != 1 or r_chosen.shape != r_rejected.shape or r_chosen.size == 0:
        raise ValueError("bad shapes")
    return float(np.logaddexp(0.0, -(r_rejected - r_chosen - margin)).sum())
