# expect: rloo-normalised-by-std
# framework: numpy
# style: scaled by the population std of the group
import numpy as np


def rloo_advantages(rewards):
    r = np.asarray(rewards, dtype=float)
    if r.ndim != 2 or r.shape[0] < 1 or r.shape[1] < 2:
        raise ValueError("rewards must be [P, K], K >= 2")
    k = r.shape[1]
    adv = k / (k - 1) * (r - r.mean(axis=1, keepdims=True))
    return adv / (r.std(axis=1, keepdims=True) + 1e-8)
