# expect: right
# framework: numpy
# style: NumPy stable piecewise log(1 + e^-x) = max(-x, 0) + log1p(e^-|x|)
import numpy as np


def bradley_terry_loss(r_chosen, r_rejected, margin=0.0):
    if np.ndim(r_chosen) != 1 or np.shape(r_chosen) != np.shape(r_rejected) or len(r_chosen) == 0:
        raise ValueError("bad shapes")
    x = r_chosen - r_rejected - margin
    per_pair = np.maximum(-x, 0.0) + np.log1p(np.exp(-np.abs(x)))
    return per_pair.mean()
