# expect: rloo-divides-by-k
# framework: numpy
# style: others' sum over K
import numpy as np


def rloo_advantages(rewards):
    r = np.asarray(rewards, dtype=float)
    if r.ndim != 2 or r.shape[0] < 1 or r.shape[1] < 2:
        raise ValueError("rewards must be [P, K], K >= 2")
    k = r.shape[1]
    others = r.sum(axis=1, keepdims=True) - r
    return r - others / k
