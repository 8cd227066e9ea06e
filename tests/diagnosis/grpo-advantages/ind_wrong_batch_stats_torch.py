# expect: grpo-batch-stats
# framework: torch
# style: one mean and std over the whole batch of scores
import torch


def compute_grpo_advantages(scores, response_mask, group_size, eps=1e-6, norm_by_std=True):
    if group_size < 1 or scores.shape[0] % group_size:
        raise ValueError("bad group_size")
    if group_size == 1:
        return torch.zeros(response_mask.shape, dtype=scores.dtype)
    adv = scores - scores.mean()
    if norm_by_std:
        adv = adv / (scores.std() + eps)
    return torch.where(response_mask, adv[:, None], torch.zeros((), dtype=scores.dtype))
