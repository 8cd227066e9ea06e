# expect: grpo-no-eps
# framework: torch
# style: grouped z-score without eps
import torch


def compute_grpo_advantages(scores, response_mask, group_size, eps=1e-6, norm_by_std=True):
    if group_size < 1 or scores.shape[0] % group_size != 0:
        raise ValueError("bad group size")
    if group_size == 1:
        return torch.zeros(response_mask.shape, dtype=scores.dtype)
    g = scores.reshape(-1, group_size)
    a = g - g.mean(1, keepdim=True)
    if norm_by_std:
        a = a / g.std(1, keepdim=True)
    return torch.where(response_mask, a.reshape(-1, 1), torch.zeros((), dtype=scores.dtype))
