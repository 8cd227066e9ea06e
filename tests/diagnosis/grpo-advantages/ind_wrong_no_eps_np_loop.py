# expect: grpo-no-eps
# framework: numpy
# style: NumPy loop over prompts, np.std(ddof=1) without eps
import numpy as np


def compute_grpo_advantages(scores, response_mask, group_size, eps=1e-6, norm_by_std=True):
    B = scores.shape[0]
    if group_size < 1 or B % group_size:
        raise ValueError("group_size must divide B")
    out = np.zeros(response_mask.shape, dtype=scores.dtype)
    for p in range(B // group_size):
        sl = slice(p * group_size, (p + 1) * group_size)
        grp = scores[sl]
        if group_size == 1:
            continue
        a = grp - grp.mean()
        if norm_by_std:
            with np.errstate(invalid="ignore", divide="ignore"):
                a = a / grp.std(ddof=1)
        out[sl] = np.where(response_mask[sl], a[:, None], 0.0)
    return out
