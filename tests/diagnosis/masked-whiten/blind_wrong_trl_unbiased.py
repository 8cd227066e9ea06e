# expect: whiten-unbiased-variance
# framework: torch
# style: TRL's masked_var with the Bessel correction
import torch


def masked_mean(values, mask):
    return torch.where(mask, values, torch.zeros((), dtype=values.dtype)).sum() / mask.sum()


def masked_whiten(advantages, response_mask, shift_mean=True, eps=1e-8):
    mean = masked_mean(advantages, response_mask)
    centered = advantages - mean
    variance = masked_mean(centered ** 2, response_mask)
    n = response_mask.sum()
    if n > 1:
        variance = variance * n / (n - 1)
    whitened = centered * torch.rsqrt(variance + eps)
    if not shift_mean:
        whitened = whitened + mean
    return torch.where(response_mask, whitened, torch.zeros((), dtype=whitened.dtype))
