# expect: bt-margin-wrong-side
# framework: numpy
# style: the margin given to the rejected side as a head start for the chosen
import numpy as np


def bradley_terry_loss(r_chosen, r_rejected, margin=0.0):
    c = np.asarray(r_chosen, dtype=float)
    r = np.asarray(r_rejected, dtype=float)
    if c.ndim != 1 or c.shape != r.shape or c.size == 0:
        raise ValueError("need two 1-D arrays of equal non-zero length")
    shifted_rejected = r - margin
    return np.logaddexp(0.0, -(c - shifted_rejected)).mean()
