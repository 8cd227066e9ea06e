# expect: grpo-population-std
# framework: torch
# style: std written out as sqrt(mean((x - mean)^2))
import torch


def compute_grpo_advantages(scores, response_mask, group_size, eps=1e-6, norm_by_std=True):
    if group_size < 1 or scores.numel() % group_size:
        raise ValueError("groups must be complete")
    g = scores.reshape(-1, group_size)
    centred = g - g.mean(dim=1, keepdim=True)
    if norm_by_std and group_size > 1:
        centred = centred / (centred.pow(2).mean(dim=1, keepdim=True).sqrt() + eps)
    out = centred.reshape(-1, 1).repeat(1, response_mask.shape[1])
    return out * response_mask
