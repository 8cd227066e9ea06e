# expect: rloo-baseline-includes-self
# framework: numpy
# style: group mean as the baseline
import numpy as np


def rloo_advantages(rewards):
    r = np.asarray(rewards, dtype=float)
    if r.ndim != 2 or r.shape[0] < 1 or r.shape[1] < 2:
        raise ValueError("rewards must be [P, K], K >= 2")
    return r - r.mean(axis=1, keepdims=True)
