# expect: rloo-batch-baseline
# framework: numpy
# style: flattened batch, leave one out of everything
import numpy as np


def rloo_advantages(rewards):
    r = np.asarray(rewards, dtype=float)
    if r.ndim != 2 or r.shape[0] < 1 or r.shape[1] < 2:
        raise ValueError("rewards must be [P, K], K >= 2")
    flat = r.ravel()
    n = flat.size
    base = (flat.sum() - flat) / (n - 1)
    return (flat - base).reshape(r.shape)
