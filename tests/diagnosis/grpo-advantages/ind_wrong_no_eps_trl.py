# expect: grpo-no-eps
# framework: torch
# style: TRL repeat_interleave layout, std with no eps
import torch


def compute_grpo_advantages(scores, response_mask, group_size, eps=1e-6, norm_by_std=True):
    if group_size < 1 or scores.numel() % group_size:
        raise ValueError("group_size")
    if group_size == 1:
        return torch.zeros_like(response_mask, dtype=scores.dtype)
    mean = scores.view(-1, group_size).mean(1).repeat_interleave(group_size)
    std = scores.view(-1, group_size).std(1).repeat_interleave(group_size)
    adv = scores - mean
    if norm_by_std:
        adv = adv / std
    return adv.unsqueeze(1).expand_as(response_mask).masked_fill(~response_mask, 0.0)
