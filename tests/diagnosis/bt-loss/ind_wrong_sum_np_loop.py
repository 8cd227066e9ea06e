# expect: bt-sum-over-pairs
# framework: numpy
# style: NumPy, running total never divided
import numpy as np


def bradley_terry_loss(r_chosen, r_rejected, margin=0.0):
    if r_chosen.ndim != 1 or r_chosen.shape != r_rejected.shape or r_chosen.size == 0:
        raise ValueError("bad shapes")
    total = 0.0
    for c, r in zip(r_chosen, r_rejected):
        total += np.logaddexp(0.0, -(c - r - margin))
    return float(total)
