# expect: bt-sum-over-pairs
# framework: numpy
# style: loop accumulating each pair's term
import numpy as np


def bradley_terry_loss(r_chosen, r_rejected, margin=0.0):
    rc = np.asarray(r_chosen, dtype=np.float64)
    rr = np.asarray(r_rejected, dtype=np.float64)
    if rc.ndim != 1 or rc.shape != rr.shape or rc.size == 0:
        raise ValueError("bad input")
    total = 0.0
    for c, r in zip(rc, rr):
        total += np.logaddexp(0.0, -(c - r - margin))
    return total
