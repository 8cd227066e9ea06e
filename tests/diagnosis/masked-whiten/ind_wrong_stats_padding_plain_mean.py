# expect: whiten-stats-over-padding
# framework: torch
# style: padding zeroed first, then .mean() and .var(unbiased=False) over the whole tensor
import torch


def masked_whiten(advantages, response_mask, shift_mean=True, eps=1e-8):
    x = torch.where(response_mask, advantages, torch.zeros_like(advantages))
    mean = x.mean()
    var = x.var(unbiased=False)
    w = (x - mean) / torch.sqrt(var + eps)
    if not shift_mean:
        w = w + mean
    return torch.where(response_mask, w, torch.zeros_like(w))
