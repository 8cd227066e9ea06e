# expect: grpo-no-eps
# framework: numpy
# style: loop over groups
import numpy as np


def compute_grpo_advantages(scores, response_mask, group_size, eps=1e-6, norm_by_std=True):
    if group_size < 1 or len(scores) % group_size:
        raise ValueError("len(scores) % group_size != 0")
    out = np.zeros(response_mask.shape, dtype=scores.dtype)
    for p in range(len(scores) // group_size):
        g = scores[p * group_size:(p + 1) * group_size]
        for j in range(group_size):
            a = g[j] - g.mean()
            if norm_by_std and group_size > 1:
                a = a / g.std(ddof=1)
            row = p * group_size + j
            out[row, response_mask[row]] = a
    return out
