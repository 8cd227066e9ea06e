# expect: grpo-no-eps
# framework: torch
# style: std from the variance, broadcast with masked_fill
import torch


def compute_grpo_advantages(scores, response_mask, group_size, eps=1e-6, norm_by_std=True):
    if group_size < 1 or scores.numel() % group_size:
        raise ValueError("incomplete group")
    g = scores.reshape(-1, group_size)
    centred = g - g.mean(1, keepdim=True)
    if norm_by_std and group_size > 1:
        std = torch.sqrt((centred ** 2).sum(1, keepdim=True) / (group_size - 1))
        centred = centred / std
    return centred.reshape(-1, 1).expand_as(response_mask).masked_fill(~response_mask, 0)
