# expect: grpo-padding-not-zeroed
# framework: torch
# style: torch.ones_like(mask) * advantage (the mask's shape, not its values)
import torch


def compute_grpo_advantages(scores, response_mask, group_size, eps=1e-6, norm_by_std=True):
    if group_size < 1 or len(scores) % group_size:
        raise ValueError("group_size")
    if group_size == 1:
        return torch.zeros(response_mask.shape, dtype=scores.dtype)
    grp = scores.reshape(-1, group_size)
    mean = grp.mean(dim=1).repeat_interleave(group_size)
    std = grp.std(dim=1).repeat_interleave(group_size)
    adv = (scores - mean) / (std + eps) if norm_by_std else scores - mean
    return torch.ones_like(response_mask, dtype=scores.dtype) * adv.unsqueeze(-1)
