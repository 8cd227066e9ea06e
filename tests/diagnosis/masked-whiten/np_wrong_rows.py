# expect: whiten-per-row
# style: row loop with np.mean and np.var
# framework: numpy
import numpy as np


def masked_whiten(advantages, response_mask, shift_mean=True, eps=1e-8):
    out = np.zeros(advantages.shape)
    for b in range(advantages.shape[0]):
        row = advantages[b, response_mask[b]]
        m, v = np.mean(row), np.var(row)
        z = (row - m) / np.sqrt(v + eps)
        out[b, response_mask[b]] = z if shift_mean else z + m
    return out
