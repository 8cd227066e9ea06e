# expect: grpo-population-std
# framework: torch
# style: loop over groups, variance as the mean squared deviation
import torch


def compute_grpo_advantages(scores, response_mask, group_size, eps=1e-6, norm_by_std=True):
    B = scores.shape[0]
    if group_size < 1 or B % group_size:
        raise ValueError("bad group_size")
    adv = torch.zeros(B, dtype=scores.dtype)
    for s in range(0, B, group_size):
        grp = scores[s:s + group_size]
        mu = grp.mean()
        sigma = ((grp - mu) ** 2).mean().sqrt()
        adv[s:s + group_size] = (grp - mu) / (sigma + eps) if norm_by_std else grp - mu
    return torch.where(response_mask, adv[:, None], torch.zeros((), dtype=scores.dtype))
