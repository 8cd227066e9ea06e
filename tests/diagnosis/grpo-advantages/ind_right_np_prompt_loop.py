# expect: right
# framework: numpy
# style: NumPy, loop over prompts with slices of G rows, manual unbiased std
import math
import numpy as np


def compute_grpo_advantages(scores, response_mask, group_size, eps=1e-6, norm_by_std=True):
    B = len(scores)
    G = group_size
    if G < 1 or B % G != 0:
        raise ValueError("group_size must divide the batch")
    out = np.zeros(response_mask.shape, dtype=scores.dtype)
    for start in range(0, B, G):
        grp = [float(s) for s in scores[start:start + G]]
        mean = sum(grp) / G
        std = math.sqrt(sum((s - mean) ** 2 for s in grp) / (G - 1)) if G > 1 else 0.0
        for j, s in enumerate(grp):
            a = s - mean
            if norm_by_std:
                a = a / (std + eps)
            out[start + j, response_mask[start + j]] = a
    return out
