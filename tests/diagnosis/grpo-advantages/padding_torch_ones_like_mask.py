# expect: grpo-padding-not-zeroed
# framework: torch
# style: broadcast against a ones tensor shaped like the mask
import torch


def compute_grpo_advantages(scores, response_mask, group_size, eps=1e-6, norm_by_std=True):
    if group_size < 1 or scores.numel() % group_size:
        raise ValueError("scores must form whole groups")
    grouped = scores.reshape(-1, group_size)
    adv = grouped - grouped.mean(dim=1, keepdim=True)
    if norm_by_std and group_size > 1:
        adv = adv / (grouped.std(dim=1, keepdim=True) + eps)
    return adv.reshape(-1, 1) * torch.ones(response_mask.shape, dtype=scores.dtype)
