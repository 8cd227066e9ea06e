# expect: right
# framework: numpy
# style: NumPy loop, np.delete of the sample for its baseline
import numpy as np


def rloo_advantages(rewards):
    if rewards.ndim != 2 or rewards.shape[0] == 0 or rewards.shape[1] < 2:
        raise ValueError("rewards must be [P, K] with P >= 1, K >= 2")
    out = np.empty_like(rewards)
    P, K = rewards.shape
    for p in range(P):
        for i in range(K):
            others = np.delete(rewards[p], i)
            out[p, i] = rewards[p, i] - others.mean()
    return out
