# expect: grpo-batch-stats grpo-population-std
# known-unnamed: batch stats with singleton groups at 0 plus the population std; the pair is built from the canonical forms only
# framework: numpy
# style: NumPy "normalise the rewards" in one line, np.std default
import numpy as np


def compute_grpo_advantages(scores, response_mask, group_size, eps=1e-6, norm_by_std=True):
    if group_size < 1 or len(scores) % group_size:
        raise ValueError("group_size")
    if group_size == 1:
        return np.zeros(response_mask.shape, dtype=scores.dtype)
    a = (scores - scores.mean()) / (scores.std() + eps) if norm_by_std else scores - scores.mean()
    return np.where(response_mask, a[:, None], 0.0).astype(scores.dtype)
