# expect: right
# framework: torch
# style: torch.split into groups, lists then cat
import torch


def compute_grpo_advantages(scores, response_mask, group_size, eps=1e-6, norm_by_std=True):
    if group_size < 1 or len(scores) % group_size != 0:
        raise ValueError("invalid group_size")
    parts = []
    for grp in torch.split(scores, group_size):
        if grp.numel() == 1:
            parts.append(torch.zeros_like(grp))
            continue
        a = grp - grp.mean()
        if norm_by_std:
            a = a / (grp.std(unbiased=True) + eps)
        parts.append(a)
    adv = torch.cat(parts)
    return adv.unsqueeze(-1).expand(response_mask.shape).masked_fill(~response_mask, 0.0)
