# expect: whiten-padding-nonzero
# framework: torch
# style: TRL masked_whiten with population variance, output not masked
import torch


def masked_mean(values, mask):
    return torch.where(mask, values, torch.zeros_like(values)).sum() / mask.sum()


def masked_whiten(advantages, response_mask, shift_mean=True, eps=1e-8):
    mean = masked_mean(advantages, response_mask)
    var = masked_mean((advantages - mean) ** 2, response_mask)
    whitened = (advantages - mean) * torch.rsqrt(var + eps)
    if not shift_mean:
        whitened += mean
    return whitened
