# expect: grpo-std-in-dr-variant
# framework: torch
# style: the flag is read but the std always applied
import torch


def compute_grpo_advantages(scores, response_mask, group_size, eps=1e-6, norm_by_std=True):
    if group_size < 1 or scores.shape[0] % group_size:
        raise ValueError("bad group_size")
    g = scores.view(-1, group_size)
    if group_size == 1:
        adv = torch.zeros_like(g)
    else:
        adv = (g - g.mean(1, keepdim=True)) / (g.std(1, keepdim=True) + eps)
    return torch.where(response_mask, adv.view(-1, 1), torch.zeros((), dtype=scores.dtype))
