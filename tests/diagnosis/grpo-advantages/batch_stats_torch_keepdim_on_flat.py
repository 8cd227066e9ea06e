# expect: grpo-batch-stats
# framework: torch
# style: reshape to a column, statistics over dim 0
import torch


def compute_grpo_advantages(scores, response_mask, group_size, eps=1e-6, norm_by_std=True):
    if group_size < 1 or scores.shape[0] % group_size != 0:
        raise ValueError("B must be a multiple of group_size")
    col = scores.reshape(-1, 1)
    mu = col.mean(dim=0, keepdim=True)
    adv = col - mu
    if norm_by_std and group_size != 1:
        adv = adv / (col.std(dim=0, keepdim=True) + eps)
    return adv.expand(-1, response_mask.shape[1]).masked_fill(~response_mask, 0.0)
