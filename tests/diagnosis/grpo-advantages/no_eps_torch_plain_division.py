# expect: grpo-no-eps
# framework: torch
# style: textbook formula
import torch


def compute_grpo_advantages(scores, response_mask, group_size, eps=1e-6, norm_by_std=True):
    if group_size < 1 or scores.shape[0] % group_size:
        raise ValueError("scores do not split into groups")
    groups = scores.view(-1, group_size)
    adv = groups - groups.mean(-1, keepdim=True)
    if norm_by_std and group_size > 1:
        adv = adv / groups.std(-1, keepdim=True)
    return torch.where(response_mask, adv.flatten()[:, None], torch.zeros((), dtype=scores.dtype))
