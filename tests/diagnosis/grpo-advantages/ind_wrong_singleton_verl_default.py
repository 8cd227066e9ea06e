# expect: grpo-singleton-raw-score
# framework: torch
# style: verl's singleton rule (mean 0, std 1) kept
import torch


def compute_grpo_advantages(scores, response_mask, group_size, eps=1e-6, norm_by_std=True):
    if group_size < 1 or scores.shape[0] % group_size:
        raise ValueError("bad group_size")
    g = scores.view(-1, group_size)
    if group_size == 1:
        mean = torch.zeros_like(g)
        std = torch.ones_like(g)
    else:
        mean = g.mean(dim=1, keepdim=True)
        std = g.std(dim=1, keepdim=True)
    a = g - mean
    if norm_by_std:
        a = a / (std + eps)
    return torch.where(response_mask, a.reshape(-1, 1), torch.zeros((), dtype=scores.dtype))
