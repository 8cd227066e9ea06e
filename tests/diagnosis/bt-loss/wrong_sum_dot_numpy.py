# expect: bt-sum-over-pairs
# framework: numpy
# style: weights of one per pair and a dot product
import numpy as np


def bradley_terry_loss(r_chosen, r_rejected, margin=0.0):
    rc = np.asarray(r_chosen, dtype=float)
    rr = np.asarray(r_rejected, dtype=float)
    if rc.shape != rr.shape or rc.ndim != 1 or not rc.size:
        raise ValueError("shapes")
    weights = np.ones_like(rc)
    return np.dot(weights, np.logaddexp(0.0, rr - rc + margin))
