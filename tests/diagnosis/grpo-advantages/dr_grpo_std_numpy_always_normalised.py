# expect: grpo-std-in-dr-variant
# framework: numpy
# style: loop, normalisation unconditional
import numpy as np


def compute_grpo_advantages(scores, response_mask, group_size, eps=1e-6, norm_by_std=True):
    if group_size < 1 or len(scores) % group_size:
        raise ValueError("groups")
    out = np.zeros(response_mask.shape, dtype=scores.dtype)
    for s in range(0, len(scores), group_size):
        g = scores[s:s + group_size]
        adv = g - g.mean()
        if group_size > 1:
            adv = adv / (g.std(ddof=1) + eps)
        for k in range(group_size):
            out[s + k, response_mask[s + k]] = adv[k]
    return out
