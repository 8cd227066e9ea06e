# expect: grpo-sample-major
# framework: torch
# style: view(G, P) and statistics over dim 0
import torch


def compute_grpo_advantages(scores, response_mask, group_size, eps=1e-6, norm_by_std=True):
    if group_size < 1 or scores.shape[0] % group_size:
        raise ValueError("bad group_size")
    if group_size == 1:
        return torch.zeros(response_mask.shape, dtype=scores.dtype)
    g = scores.view(group_size, -1)
    a = g - g.mean(dim=0, keepdim=True)
    if norm_by_std:
        a = a / (g.std(dim=0, keepdim=True) + eps)
    return torch.where(response_mask, a.reshape(-1, 1), torch.zeros((), dtype=scores.dtype))
