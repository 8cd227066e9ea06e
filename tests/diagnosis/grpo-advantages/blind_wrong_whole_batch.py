# expect: grpo-batch-stats
# framework: torch
# style: mean and std of the whole batch
import torch


def compute_grpo_advantages(scores, response_mask, group_size, eps=1e-6, norm_by_std=True):
    if group_size < 1 or scores.shape[0] % group_size != 0:
        raise ValueError("B must be a multiple of group_size >= 1")
    if group_size == 1:
        return torch.zeros(response_mask.shape, dtype=scores.dtype)
    adv = scores - scores.mean()
    if norm_by_std:
        adv = adv / (scores.std() + eps)
    return torch.where(response_mask, adv[:, None], torch.zeros((), dtype=scores.dtype))
