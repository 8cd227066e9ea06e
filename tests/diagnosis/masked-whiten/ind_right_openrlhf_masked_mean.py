# expect: right
# framework: torch
# style: OpenRLHF-style masked_mean / population variance, rsqrt(var + eps)
import torch


def masked_mean(x, mask):
    return torch.where(mask, x, torch.zeros_like(x)).sum() / mask.sum()


def masked_whiten(advantages, response_mask, shift_mean=True, eps=1e-8):
    mean = masked_mean(advantages, response_mask)
    var = masked_mean((advantages - mean) ** 2, response_mask)
    whitened = (advantages - mean) * torch.rsqrt(var + eps)
    if not shift_mean:
        whitened = whitened + mean
    return torch.where(response_mask, whitened, torch.zeros_like(whitened))
