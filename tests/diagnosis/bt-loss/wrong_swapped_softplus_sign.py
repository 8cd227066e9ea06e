# expect: bt-chosen-rejected-swapped
# framework: numpy
# style: softplus written with the wrong sign of the reward difference
import numpy as np


def bradley_terry_loss(r_chosen, r_rejected, margin=0.0):
    r_chosen = np.asarray(r_chosen, dtype=np.float64)
    r_rejected = np.asarray(r_rejected, dtype=np.float64)
    if r_chosen.ndim != 1 or r_chosen.shape != r_rejected.shape or r_chosen.size == 0:
        raise ValueError("bad input")
    return np.mean(np.logaddexp(0.0, r_chosen - r_rejected + margin))
