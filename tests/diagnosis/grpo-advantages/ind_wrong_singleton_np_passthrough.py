# expect: grpo-singleton-raw-score
# framework: numpy
# style: NumPy, early return of the raw scores when there is nothing to compare
import numpy as np


def compute_grpo_advantages(scores, response_mask, group_size, eps=1e-6, norm_by_std=True):
    if group_size < 1 or scores.shape[0] % group_size:
        raise ValueError("bad group_size")
    if group_size == 1:
        return np.where(response_mask, scores[:, None], 0.0).astype(scores.dtype)
    g = scores.reshape(-1, group_size)
    a = g - g.mean(axis=1, keepdims=True)
    if norm_by_std:
        a = a / (g.std(axis=1, ddof=1, keepdims=True) + eps)
    return np.where(response_mask, a.reshape(-1, 1), 0.0).astype(scores.dtype)
