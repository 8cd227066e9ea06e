# expect: whiten-unbiased-variance
# framework: torch
# style: verl masked_var with the bessel correction mask_sum / (mask_sum - 1)
import torch


def masked_mean(values, mask):
    return torch.where(mask, values, torch.zeros_like(values)).sum() / mask.sum()


def masked_var(values, mask, unbiased=True):
    mean = masked_mean(values, mask)
    variance = masked_mean((values - mean) ** 2, mask)
    if unbiased:
        mask_sum = mask.sum()
        variance = variance * (mask_sum / (mask_sum - 1))
    return variance


def masked_whiten(advantages, response_mask, shift_mean=True, eps=1e-8):
    mean, var = masked_mean(advantages, response_mask), masked_var(advantages, response_mask)
    whitened = (advantages - mean) * torch.rsqrt(var + eps)
    if not shift_mean:
        whitened += mean
    return torch.where(response_mask, whitened, torch.zeros_like(whitened))
