# expect: right
# framework: torch
# style: view(P, G), mean/std over dim 1 with keepdim, singleton groups handled first
import torch


def compute_grpo_advantages(scores, response_mask, group_size, eps=1e-6, norm_by_std=True):
    B = scores.shape[0]
    if group_size < 1 or B % group_size:
        raise ValueError(f"B={B} is not a multiple of group_size={group_size}")
    if group_size == 1:
        return torch.zeros(response_mask.shape, dtype=scores.dtype)
    g = scores.view(-1, group_size)
    adv = g - g.mean(dim=1, keepdim=True)
    if norm_by_std:
        adv = adv / (g.std(dim=1, keepdim=True) + eps)
    adv = adv.reshape(-1)
    return adv[:, None] * response_mask.to(scores.dtype)
