# expect: grpo-singleton-raw-score
# framework: torch
# style: verl's singleton branch (mean 0, std 1)
import torch


def compute_grpo_advantages(scores, response_mask, group_size, eps=1e-6, norm_by_std=True):
    if group_size < 1 or scores.shape[0] % group_size:
        raise ValueError("bad batch")
    g = scores.view(-1, group_size)
    if group_size == 1:
        mean = torch.zeros_like(g)
        std = torch.ones_like(g)
    else:
        mean = g.mean(dim=1, keepdim=True)
        std = g.std(dim=1, keepdim=True)
    adv = (g - mean) / (std + eps) if norm_by_std else g - mean
    return torch.where(response_mask, adv.reshape(-1, 1), torch.zeros((), dtype=scores.dtype))
