# expect: right
# framework: torch
# style: torch.var_mean(correction=1) per group, torch.where broadcast; singleton std set to 0
import torch


def compute_grpo_advantages(scores, response_mask, group_size, eps=1e-6, norm_by_std=True):
    if not (group_size >= 1 and scores.shape[0] % group_size == 0):
        raise ValueError("B must be a multiple of group_size >= 1")
    grid = scores.reshape(-1, group_size)
    if group_size > 1:
        var, mean = torch.var_mean(grid, dim=1, correction=1, keepdim=True)
        std = var.sqrt()
    else:
        mean = grid
        std = torch.zeros_like(grid)
    a = grid - mean
    if norm_by_std:
        a = a / (std + eps)
    a = a.flatten()
    return torch.where(response_mask, a[:, None], torch.zeros((), dtype=scores.dtype))
