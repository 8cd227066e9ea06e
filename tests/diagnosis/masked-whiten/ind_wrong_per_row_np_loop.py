# expect: whiten-per-row
# framework: numpy
# style: NumPy loop, each response whitened on its own
import numpy as np


def masked_whiten(advantages, response_mask, shift_mean=True, eps=1e-8):
    out = np.zeros_like(advantages)
    for b in range(advantages.shape[0]):
        row = advantages[b][response_mask[b]]
        mu = row.mean()
        w = (row - mu) / np.sqrt(row.var() + eps)
        out[b][response_mask[b]] = w if shift_mean else w + mu
    return out
