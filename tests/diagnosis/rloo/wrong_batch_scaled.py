# expect: rloo-batch-baseline
# framework: numpy
# style: N / (N - 1) times rewards centred on the batch mean
import numpy as np


def rloo_advantages(rewards):
    r = np.asarray(rewards, dtype=float)
    if r.ndim != 2 or r.shape[0] < 1 or r.shape[1] < 2:
        raise ValueError("rewards must be [P, K], K >= 2")
    n = r.size
    return n / (n - 1) * (r - r.mean())
