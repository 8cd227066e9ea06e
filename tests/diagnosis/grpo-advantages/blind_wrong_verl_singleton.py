# expect: grpo-singleton-raw-score
# framework: torch
# style: verl's group-of-one passthrough
import torch


def compute_grpo_advantages(scores, response_mask, group_size, eps=1e-6, norm_by_std=True):
    if group_size < 1 or scores.shape[0] % group_size != 0:
        raise ValueError("B must be a multiple of group_size >= 1")
    g = scores.view(-1, group_size)
    if group_size == 1:
        adv = g.clone()
    else:
        adv = g - g.mean(dim=1, keepdim=True)
        if norm_by_std:
            adv = adv / (g.std(dim=1, keepdim=True) + eps)
    return torch.where(response_mask, adv.reshape(-1, 1), torch.zeros((), dtype=scores.dtype))
