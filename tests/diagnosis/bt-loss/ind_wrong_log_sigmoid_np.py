# expect: bt-log-of-sigmoid
# framework: numpy
# style: NumPy probability 1 / (1 + exp(-x)) then log
import numpy as np


def bradley_terry_loss(r_chosen, r_rejected, margin=0.0):
    if r_chosen.ndim != 1 or r_chosen.shape != r_rejected.shape or r_chosen.size == 0:
        raise ValueError("bad shapes")
    x = r_chosen - r_rejected - margin
    with np.errstate(over="ignore", divide="ignore"):
        prob = 1.0 / (1.0 + np.exp(-x))
        return float(-np.mean(np.log(prob)))
