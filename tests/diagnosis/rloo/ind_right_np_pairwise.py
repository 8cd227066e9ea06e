# expect: right
# framework: numpy
# style: NumPy pairwise differences: A_i = sum_j (r_i - r_j) / (K - 1)
import numpy as np


def rloo_advantages(rewards):
    r = np.asarray(rewards)
    if r.ndim != 2:
        raise ValueError("2-D rewards expected")
    P, K = r.shape
    if P == 0 or K < 2:
        raise ValueError("P must be >= 1 and K >= 2")
    diffs = r[:, :, None] - r[:, None, :]
    return diffs.sum(axis=2) / (K - 1)
