# expect: grpo-std-in-dr-variant grpo-padding-not-zeroed
# framework: torch
# style: TRL layout, scale always applied, advantages expanded over padding
import torch


def compute_grpo_advantages(scores, response_mask, group_size, eps=1e-6, norm_by_std=True):
    if group_size < 1 or scores.numel() % group_size:
        raise ValueError("bad group_size")
    if group_size == 1:
        return torch.zeros(response_mask.shape, dtype=scores.dtype)
    mean = scores.view(-1, group_size).mean(1).repeat_interleave(group_size)
    std = scores.view(-1, group_size).std(1).repeat_interleave(group_size)
    adv = (scores - mean) / (std + eps)
    return adv.unsqueeze(1).expand_as(response_mask).clone()
