# expect: right
# framework: torch
# style: TRL idiom (view(-1, G), repeat_interleave)
import torch


def compute_grpo_advantages(scores, response_mask, group_size, eps=1e-6, norm_by_std=True):
    if group_size < 1 or len(scores) % group_size:
        raise ValueError("scores must split into groups of group_size")
    if group_size == 1:
        return torch.zeros(response_mask.shape, dtype=scores.dtype)
    mean_grouped = scores.view(-1, group_size).mean(dim=1).repeat_interleave(group_size)
    advantages = scores - mean_grouped
    if norm_by_std:
        std_grouped = scores.view(-1, group_size).std(dim=1).repeat_interleave(group_size)
        advantages = advantages / (std_grouped + eps)
    return advantages.unsqueeze(1) * response_mask
