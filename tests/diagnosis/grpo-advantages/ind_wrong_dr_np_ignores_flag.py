# expect: grpo-std-in-dr-variant
# framework: numpy
# style: NumPy loop, flag never read
import numpy as np


def compute_grpo_advantages(scores, response_mask, group_size, eps=1e-6, norm_by_std=True):
    B = len(scores)
    if group_size < 1 or B % group_size:
        raise ValueError("bad group_size")
    out = np.zeros(response_mask.shape, dtype=scores.dtype)
    if group_size == 1:
        return out
    for s in range(0, B, group_size):
        grp = scores[s:s + group_size]
        a = (grp - grp.mean()) / (grp.std(ddof=1) + eps)
        out[s:s + group_size] = np.where(response_mask[s:s + group_size], a[:, None], 0.0)
    return out
