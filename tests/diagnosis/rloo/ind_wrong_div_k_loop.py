# expect: rloo-divides-by-k
# framework: numpy
# style: NumPy loop with len(row) in the denominator
import numpy as np


def rloo_advantages(rewards):
    if rewards.ndim != 2 or rewards.shape[0] == 0 or rewards.shape[1] < 2:
        raise ValueError("bad rewards")
    out = np.empty_like(rewards)
    for p, row in enumerate(rewards):
        s = row.sum()
        for i, x in enumerate(row):
            out[p, i] = x - (s - x) / len(row)
    return out
