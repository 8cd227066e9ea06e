# expect: right
# framework: numpy
# style: NumPy, group index b // G, np.bincount sums for mean and variance
import numpy as np


def compute_grpo_advantages(scores, response_mask, group_size, eps=1e-6, norm_by_std=True):
    B = scores.shape[0]
    if group_size < 1 or B % group_size:
        raise ValueError("B must be divisible by group_size")
    gid = np.arange(B) // group_size
    s = scores.astype(np.float64)
    mean = np.bincount(gid, weights=s) / group_size
    centred = s - mean[gid]
    if norm_by_std and group_size > 1:
        var = np.bincount(gid, weights=centred ** 2) / (group_size - 1)
        centred = centred / (np.sqrt(var)[gid] + eps)
    adv = centred.astype(scores.dtype)
    return (np.where(response_mask, adv[:, None], 0.0)).astype(scores.dtype)
