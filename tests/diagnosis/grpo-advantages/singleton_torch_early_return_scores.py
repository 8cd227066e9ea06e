# expect: grpo-singleton-raw-score
# framework: torch
# style: early return of the scores for G = 1
import torch


def compute_grpo_advantages(scores, response_mask, group_size, eps=1e-6, norm_by_std=True):
    if group_size < 1 or scores.numel() % group_size:
        raise ValueError("group_size must divide the batch")
    if group_size == 1:
        return torch.where(response_mask, scores[:, None], torch.zeros((), dtype=scores.dtype))
    grouped = scores.reshape(-1, group_size)
    adv = grouped - grouped.mean(-1, keepdim=True)
    if norm_by_std:
        adv = adv / (grouped.std(-1, keepdim=True) + eps)
    return torch.where(response_mask, adv.reshape(-1, 1), torch.zeros((), dtype=scores.dtype))
