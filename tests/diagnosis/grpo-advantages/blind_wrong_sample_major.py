# expect: grpo-sample-major
# framework: numpy
# style: reshape(G, -1), groups read down the columns
import numpy as np


def compute_grpo_advantages(scores, response_mask, group_size, eps=1e-6, norm_by_std=True):
    if group_size < 1 or scores.shape[0] % group_size != 0:
        raise ValueError("B must be a multiple of group_size >= 1")
    g = scores.reshape(group_size, -1)
    if group_size == 1:
        adv = np.zeros_like(g)
    else:
        adv = g - g.mean(axis=0, keepdims=True)
        if norm_by_std:
            adv = adv / (g.std(axis=0, ddof=1, keepdims=True) + eps)
    return np.where(response_mask, adv.reshape(-1)[:, None], 0.0).astype(scores.dtype)
