# expect: grpo-batch-stats
# framework: numpy
# style: loop, one baseline for every response
import numpy as np


def compute_grpo_advantages(scores, response_mask, group_size, eps=1e-6, norm_by_std=True):
    n = scores.shape[0]
    if group_size < 1 or n % group_size != 0:
        raise ValueError("the batch must hold whole groups")
    baseline = scores.mean()
    spread = scores.std(ddof=1) if group_size > 1 else 1.0
    out = np.zeros(response_mask.shape, dtype=scores.dtype)
    for i in range(n):
        a = scores[i] - baseline
        if norm_by_std and group_size > 1:
            a = a / (spread + eps)
        out[i][response_mask[i]] = a
    return out
