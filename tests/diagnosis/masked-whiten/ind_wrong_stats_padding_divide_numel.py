# expect: whiten-stats-over-padding
# framework: torch
# style: masked sums divided by numel instead of the number of valid tokens
import torch


def masked_whiten(advantages, response_mask, shift_mean=True, eps=1e-8):
    m = response_mask
    x = advantages.masked_fill(~m, 0.0)
    N = x.numel()
    mean = x.sum() / N
    var = ((x - mean) ** 2).sum() / N
    out = (x - mean) * torch.rsqrt(var + eps)
    if not shift_mean:
        out = out + mean
    return out.masked_fill(~m, 0.0)
