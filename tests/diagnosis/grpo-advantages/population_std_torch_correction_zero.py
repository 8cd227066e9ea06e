# expect: grpo-population-std
# framework: torch
# style: torch.std with correction=0
import torch


def compute_grpo_advantages(scores, response_mask, group_size, eps=1e-6, norm_by_std=True):
    if group_size < 1 or scores.shape[0] % group_size:
        raise ValueError("bad batch")
    g = scores.view(-1, group_size)
    adv = g - g.mean(-1, keepdim=True)
    if norm_by_std and group_size > 1:
        adv = adv / (torch.std(g, dim=-1, correction=0, keepdim=True) + eps)
    return torch.where(response_mask, adv.reshape(-1, 1), torch.zeros((), dtype=scores.dtype))
