# expect: grpo-sample-major
# framework: torch
# style: unflatten + transpose, groups as columns
import torch


def compute_grpo_advantages(scores, response_mask, group_size, eps=1e-6, norm_by_std=True):
    if group_size < 1 or len(scores) % group_size:
        raise ValueError("scores length not divisible by group_size")
    P = len(scores) // group_size
    groups = scores.unflatten(0, (group_size, P)).transpose(0, 1)
    mean = groups.mean(dim=1, keepdim=True)
    adv = groups - mean
    if norm_by_std and group_size > 1:
        adv = adv / (groups.std(dim=1, keepdim=True) + eps)
    flat = adv.transpose(0, 1).reshape(-1)
    return torch.where(response_mask, flat[:, None], torch.zeros((), dtype=scores.dtype))
