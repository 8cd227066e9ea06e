# expect: grpo-population-std
# framework: torch
# style: std(unbiased=False) per group
import torch


def compute_grpo_advantages(scores, response_mask, group_size, eps=1e-6, norm_by_std=True):
    if group_size < 1 or scores.shape[0] % group_size:
        raise ValueError("group_size")
    g = scores.view(-1, group_size)
    if group_size == 1:
        return torch.zeros(response_mask.shape, dtype=scores.dtype)
    a = g - g.mean(1, keepdim=True)
    if norm_by_std:
        a = a / (g.std(1, keepdim=True, unbiased=False) + eps)
    return torch.where(response_mask, a.reshape(-1, 1), torch.zeros((), dtype=scores.dtype))
