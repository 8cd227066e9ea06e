# expect: bt-chosen-rejected-swapped
# framework: numpy
# style: NumPy logaddexp with the rewards the other way round
import numpy as np


def bradley_terry_loss(r_chosen, r_rejected, margin=0.0):
    if r_chosen.ndim != 1 or r_chosen.shape != r_rejected.shape or r_chosen.size == 0:
        raise ValueError("bad shapes")
    x = r_rejected - r_chosen - margin
    return float(np.logaddexp(0.0, -x).mean())
