# expect: grpo-population-std
# framework: numpy
# style: np.std without ddof
import numpy as np


def compute_grpo_advantages(scores, response_mask, group_size, eps=1e-6, norm_by_std=True):
    if group_size < 1 or scores.shape[0] % group_size != 0:
        raise ValueError("B must be a multiple of group_size >= 1")
    g = scores.reshape(-1, group_size)
    adv = g - g.mean(axis=1, keepdims=True)
    if norm_by_std:
        adv = adv / (g.std(axis=1, keepdims=True) + eps)
    return np.where(response_mask, adv.reshape(-1, 1), 0.0).astype(scores.dtype)
