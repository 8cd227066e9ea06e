# expect: right
# framework: torch
# style: verl's compute_grpo_outcome_advantage (group by index, torch.std), singleton 0
import torch


def compute_grpo_advantages(scores, response_mask, group_size, eps=1e-6, norm_by_std=True):
    if group_size < 1 or scores.shape[0] % group_size != 0:
        raise ValueError("B must be a multiple of group_size >= 1")
    B = scores.shape[0]
    out = torch.zeros(B, dtype=scores.dtype)
    for start in range(0, B, group_size):
        g = scores[start:start + group_size]
        if group_size == 1:
            continue
        mean = torch.mean(g)
        std = torch.std(g)
        a = g - mean
        if norm_by_std:
            a = a / (std + eps)
        out[start:start + group_size] = a
    return torch.where(response_mask, out.unsqueeze(-1), torch.zeros((), dtype=scores.dtype))
