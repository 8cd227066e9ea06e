# expect: grpo-sample-major
# framework: torch
# style: view as [G, P], statistics over the samples dim 0
import torch


def compute_grpo_advantages(scores, response_mask, group_size, eps=1e-6, norm_by_std=True):
    if group_size < 1 or scores.shape[0] % group_size:
        raise ValueError("bad batch")
    by_sample = scores.view(group_size, -1)
    adv = by_sample - by_sample.mean(dim=0, keepdim=True)
    if norm_by_std and group_size > 1:
        adv = adv / (by_sample.std(dim=0, keepdim=True) + eps)
    adv = adv.reshape(-1)
    return torch.where(response_mask, adv.unsqueeze(1), torch.zeros((), dtype=scores.dtype))
