# expect: whiten-per-row
# style: row-wise masked moments
import torch


def masked_whiten(advantages, response_mask, shift_mean=True, eps=1e-8):
    zero = torch.zeros((), dtype=advantages.dtype)
    cnt = response_mask.sum(dim=1, keepdim=True)
    mean = torch.where(response_mask, advantages, zero).sum(dim=1, keepdim=True) / cnt
    var = (torch.where(response_mask, advantages - mean, zero) ** 2).sum(dim=1, keepdim=True) / cnt
    out = (advantages - mean) * torch.rsqrt(var + eps)
    if not shift_mean:
        out = out + mean
    return torch.where(response_mask, out, zero)
