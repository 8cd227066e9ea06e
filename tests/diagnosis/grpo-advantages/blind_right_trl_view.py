# expect: right
# framework: torch
# style: TRL's view(-1, G), repeat_interleave back
import torch


def compute_grpo_advantages(scores, response_mask, group_size, eps=1e-6, norm_by_std=True):
    if group_size < 1 or scores.shape[0] % group_size != 0:
        raise ValueError("B must be a multiple of group_size >= 1")
    if group_size == 1:
        return torch.zeros(response_mask.shape, dtype=scores.dtype)
    mean_grouped = scores.view(-1, group_size).mean(dim=1)
    std_grouped = scores.view(-1, group_size).std(dim=1)
    mean_grouped = mean_grouped.repeat_interleave(group_size, dim=0)
    std_grouped = std_grouped.repeat_interleave(group_size, dim=0)
    adv = scores - mean_grouped
    if norm_by_std:
        adv = adv / (std_grouped + eps)
    return adv.unsqueeze(1).expand(response_mask.shape).masked_fill(~response_mask, 0.0).contiguous()
