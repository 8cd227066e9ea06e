# expect:
# expect-unnamed: the log-likelihood returned instead of its negative (loss <= 0)
# framework: numpy
import numpy as np


def bradley_terry_loss(r_chosen, r_rejected, margin=0.0):
    if r_chosen.ndim != 1 or r_chosen.shape != r_rejected.shape or r_chosen.size == 0:
        raise ValueError("bad shapes")
    x = r_chosen - r_rejected - margin
    return float(np.mean(-np.logaddexp(0.0, -x)))
