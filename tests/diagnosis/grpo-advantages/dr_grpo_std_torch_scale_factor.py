# expect: grpo-std-in-dr-variant
# framework: torch
# style: a scale tensor, std whenever the group has spread
import torch


def compute_grpo_advantages(scores, response_mask, group_size, eps=1e-6, norm_by_std=True):
    if group_size < 1 or scores.numel() % group_size != 0:
        raise ValueError("scores must be P * group_size long")
    grouped = scores.reshape(-1, group_size)
    centred = grouped - grouped.mean(dim=-1, keepdim=True)
    scale = grouped.std(dim=-1, keepdim=True) + eps if group_size > 1 else torch.ones_like(grouped[:, :1])
    adv = (centred / scale).reshape(-1, 1)
    return torch.where(response_mask, adv, torch.zeros((), dtype=scores.dtype))
