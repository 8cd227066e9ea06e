# expect: whiten-padding-nonzero
# framework: torch
# style: padding masked by multiplying (garbage stays NaN/inf in padded slots)
import torch


def masked_whiten(advantages, response_mask, shift_mean=True, eps=1e-8):
    m = response_mask
    n = m.sum()
    mean = torch.where(m, advantages, 0.0).sum() / n
    var = torch.where(m, (advantages - mean) ** 2, 0.0).sum() / n
    w = (advantages - mean) / torch.sqrt(var + eps)
    if not shift_mean:
        w = w + mean
    return w * m
