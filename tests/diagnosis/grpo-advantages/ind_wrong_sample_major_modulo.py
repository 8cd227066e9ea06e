# expect: grpo-sample-major
# framework: torch
# style: group id taken as b % P (interleaved batch)
import torch


def compute_grpo_advantages(scores, response_mask, group_size, eps=1e-6, norm_by_std=True):
    B = scores.shape[0]
    if group_size < 1 or B % group_size:
        raise ValueError("bad group_size")
    P = B // group_size
    adv = torch.zeros(B, dtype=scores.dtype)
    if group_size > 1:
        for p in range(P):
            idx = torch.arange(p, B, P)
            grp = scores[idx]
            a = grp - grp.mean()
            if norm_by_std:
                a = a / (grp.std() + eps)
            adv[idx] = a
    return torch.where(response_mask, adv.unsqueeze(1), torch.zeros((), dtype=scores.dtype))
