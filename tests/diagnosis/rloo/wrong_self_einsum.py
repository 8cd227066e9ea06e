# expect: rloo-baseline-includes-self
# framework: numpy
# style: averaging matrix of ones / K
import numpy as np


def rloo_advantages(rewards):
    r = np.asarray(rewards, dtype=float)
    if r.ndim != 2 or r.shape[0] < 1 or r.shape[1] < 2:
        raise ValueError("rewards must be [P, K], K >= 2")
    k = r.shape[1]
    avg = np.full((k, k), 1.0 / k)
    return r - r @ avg
