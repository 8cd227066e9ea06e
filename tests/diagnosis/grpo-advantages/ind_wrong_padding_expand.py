# expect: grpo-padding-not-zeroed
# framework: torch
# style: advantage expanded over the full [B, T] grid
import torch


def compute_grpo_advantages(scores, response_mask, group_size, eps=1e-6, norm_by_std=True):
    if group_size < 1 or scores.shape[0] % group_size:
        raise ValueError("bad group_size")
    T = response_mask.shape[1]
    if group_size == 1:
        return torch.zeros(response_mask.shape, dtype=scores.dtype)
    g = scores.view(-1, group_size)
    a = g - g.mean(-1, keepdim=True)
    if norm_by_std:
        a = a / (g.std(-1, keepdim=True) + eps)
    return a.reshape(-1, 1).expand(-1, T).clone()
