# expect: grpo-population-std
# framework: numpy
# style: np.std with its default ddof
import numpy as np


def compute_grpo_advantages(scores, response_mask, group_size, eps=1e-6, norm_by_std=True):
    if group_size < 1 or scores.shape[0] % group_size:
        raise ValueError("the batch must be P * group_size responses")
    g = scores.reshape(-1, group_size)
    a = g - g.mean(axis=1, keepdims=True)
    if norm_by_std and group_size > 1:
        a = a / (np.std(g, axis=1, keepdims=True) + eps)
    return np.where(response_mask, a.reshape(-1, 1), 0.0).astype(scores.dtype)
