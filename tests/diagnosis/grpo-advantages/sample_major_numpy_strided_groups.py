# expect: grpo-sample-major
# framework: numpy
# style: loop, groups taken with a stride of P
import numpy as np


def compute_grpo_advantages(scores, response_mask, group_size, eps=1e-6, norm_by_std=True):
    B = scores.shape[0]
    if group_size < 1 or B % group_size:
        raise ValueError("B must be a multiple of group_size")
    P = B // group_size
    per = np.zeros(B, dtype=np.float64)
    for p in range(P):
        idx = np.arange(p, B, P)
        g = scores[idx].astype(np.float64)
        a = g - g.mean()
        if norm_by_std and group_size > 1:
            a = a / (g.std(ddof=1) + eps)
        per[idx] = a
    return np.where(response_mask, per[:, None], 0.0).astype(scores.dtype)
