# expect: grpo-sample-major
# framework: numpy
# style: NumPy reshape(G, P).T to get one prompt per row (wrong layout)
import numpy as np


def compute_grpo_advantages(scores, response_mask, group_size, eps=1e-6, norm_by_std=True):
    B = scores.shape[0]
    if group_size < 1 or B % group_size:
        raise ValueError("bad group_size")
    if group_size == 1:
        return np.zeros(response_mask.shape, dtype=scores.dtype)
    P = B // group_size
    groups = scores.reshape(group_size, P).T        # [P, G]
    a = groups - groups.mean(axis=1, keepdims=True)
    if norm_by_std:
        a = a / (groups.std(axis=1, ddof=1, keepdims=True) + eps)
    flat = a.T.reshape(-1)
    return np.where(response_mask, flat[:, None], 0.0).astype(scores.dtype)
