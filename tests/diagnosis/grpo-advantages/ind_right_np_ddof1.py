# expect: right
# framework: numpy
# style: NumPy reshape(P, G), np.std(ddof=1), np.where broadcast
import numpy as np


def compute_grpo_advantages(scores, response_mask, group_size, eps=1e-6, norm_by_std=True):
    scores = np.asarray(scores)
    if not isinstance(group_size, (int, np.integer)) or group_size < 1 or scores.shape[0] % group_size != 0:
        raise ValueError("bad group_size")
    grouped = scores.reshape(-1, group_size)
    mean = grouped.mean(axis=1, keepdims=True)
    centred = grouped - mean
    if norm_by_std and group_size > 1:
        centred = centred / (grouped.std(axis=1, ddof=1, keepdims=True) + eps)
    adv = centred.reshape(-1).astype(scores.dtype)
    return np.where(response_mask, adv[:, None], 0).astype(scores.dtype)
