# expect: grpo-padding-not-zeroed
# framework: numpy
# style: NumPy, np.repeat of the advantage along the time axis
import numpy as np


def compute_grpo_advantages(scores, response_mask, group_size, eps=1e-6, norm_by_std=True):
    if group_size < 1 or scores.shape[0] % group_size:
        raise ValueError("group_size")
    T = response_mask.shape[1]
    if group_size == 1:
        return np.zeros((scores.shape[0], T), dtype=scores.dtype)
    g = scores.reshape(-1, group_size)
    a = g - g.mean(axis=1, keepdims=True)
    if norm_by_std:
        a = a / (g.std(axis=1, ddof=1, keepdims=True) + eps)
    return np.repeat(a.reshape(-1, 1), T, axis=1).astype(scores.dtype)
