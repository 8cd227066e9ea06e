# expect: right
# framework: numpy
# style: vectorised, broadcasting
import numpy as np


def compute_grpo_advantages(scores, response_mask, group_size, eps=1e-6, norm_by_std=True):
    if not group_size >= 1 or scores.size % group_size:
        raise ValueError("group_size must divide the batch")
    g = scores.reshape(scores.size // group_size, group_size)
    a = g - g.mean(axis=-1, keepdims=True)
    if norm_by_std and group_size >= 2:
        a = a / (np.sqrt(((g - g.mean(axis=-1, keepdims=True)) ** 2).sum(-1, keepdims=True) / (group_size - 1)) + eps)
    return np.where(response_mask, a.reshape(-1)[:, None], np.zeros((), scores.dtype)).astype(scores.dtype)
