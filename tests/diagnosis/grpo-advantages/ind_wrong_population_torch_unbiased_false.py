# expect: grpo-population-std
# framework: torch
# style: torch.std(unbiased=False) "to avoid NaN for groups of one"
import torch


def compute_grpo_advantages(scores, response_mask, group_size, eps=1e-6, norm_by_std=True):
    if group_size < 1 or scores.shape[0] % group_size:
        raise ValueError("bad group_size")
    g = scores.view(-1, group_size)
    a = g - g.mean(dim=1, keepdim=True)
    if norm_by_std:
        a = a / (g.std(dim=1, unbiased=False, keepdim=True) + eps)
    return torch.where(response_mask, a.reshape(-1, 1), torch.zeros((), dtype=scores.dtype))
