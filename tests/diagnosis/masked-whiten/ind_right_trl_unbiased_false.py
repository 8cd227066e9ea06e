# expect: right
# framework: torch
# style: TRL masked_mean / masked_var(unbiased=False) / masked_whiten, padding zeroed at the end
import torch


def masked_mean(values, mask, axis=None):
    values = torch.where(mask, values, torch.zeros_like(values))
    if axis is not None:
        return values.sum(axis=axis) / mask.sum(axis=axis)
    return values.sum() / mask.sum()


def masked_var(values, mask, unbiased=True):
    mean = masked_mean(values, mask)
    centered_values = values - mean
    variance = masked_mean(centered_values ** 2, mask)
    if unbiased:
        mask_sum = mask.sum()
        if mask_sum == 0:
            raise ValueError("mask has no valid entry")
        bessel_correction = mask_sum / (mask_sum - 1)
        variance = variance * bessel_correction
    return variance


def masked_whiten(advantages, response_mask, shift_mean=True, eps=1e-8):
    mean, var = masked_mean(advantages, response_mask), masked_var(advantages, response_mask, unbiased=False)
    whitened = (advantages - mean) * torch.rsqrt(var + eps)
    if not shift_mean:
        whitened += mean
    return torch.where(response_mask, whitened, 0.0)
