# expect: grpo-batch-stats
# framework: numpy
# style: NumPy, groups reshaped for the check but statistics over the flat array
import numpy as np


def compute_grpo_advantages(scores, response_mask, group_size, eps=1e-6, norm_by_std=True):
    B = scores.shape[0]
    if group_size < 1 or B % group_size != 0:
        raise ValueError("B must be a multiple of group_size")
    if group_size == 1:
        return np.zeros(response_mask.shape, dtype=scores.dtype)
    mu = scores.mean()
    a = scores - mu
    if norm_by_std:
        a = a / (scores.std(ddof=1) + eps)
    return np.where(response_mask, a[:, None], 0.0).astype(scores.dtype)
