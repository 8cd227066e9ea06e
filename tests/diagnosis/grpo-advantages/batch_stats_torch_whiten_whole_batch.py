# expect: grpo-batch-stats
# framework: torch
# style: one whitening over the batch
import torch


def compute_grpo_advantages(scores, response_mask, group_size, eps=1e-6, norm_by_std=True):
    if group_size < 1 or scores.numel() % group_size:
        raise ValueError("bad group_size")
    adv = scores - scores.mean()
    if norm_by_std and group_size > 1:
        adv = adv / (scores.std() + eps)
    return torch.where(response_mask, adv[:, None], torch.tensor(0.0, dtype=scores.dtype))
