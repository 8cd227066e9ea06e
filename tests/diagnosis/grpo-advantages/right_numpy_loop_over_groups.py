# expect: right
# framework: numpy
# style: loop over prompts
import numpy as np


def compute_grpo_advantages(scores, response_mask, group_size, eps=1e-6, norm_by_std=True):
    B = len(scores)
    if group_size <= 0 or B % group_size != 0:
        raise ValueError("batch is not a whole number of groups")
    per_response = np.zeros(B, dtype=scores.dtype)
    for start in range(0, B, group_size):
        group = scores[start:start + group_size].astype(np.float64)
        if group_size == 1:
            continue
        centred = group - group.mean()
        if norm_by_std:
            centred = centred / (group.std(ddof=1) + eps)
        per_response[start:start + group_size] = centred
    out = np.zeros(response_mask.shape, dtype=scores.dtype)
    for b in range(B):
        out[b, response_mask[b]] = per_response[b]
    return out
