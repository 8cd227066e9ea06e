# expect: grpo-padding-not-zeroed
# framework: numpy
# style: np.tile over the sequence length
import numpy as np


def compute_grpo_advantages(scores, response_mask, group_size, eps=1e-6, norm_by_std=True):
    if group_size < 1 or len(scores) % group_size:
        raise ValueError("len(scores) must be a multiple of group_size")
    g = scores.reshape(-1, group_size)
    a = g - g.mean(axis=1, keepdims=True)
    if norm_by_std and group_size > 1:
        a = a / (g.std(axis=1, ddof=1, keepdims=True) + eps)
    return np.tile(a.reshape(-1, 1), (1, response_mask.shape[1])).astype(scores.dtype)
