# expect: whiten-no-eps whiten-padding-nonzero
# style: rsqrt(var), eps unused
import torch


def masked_whiten(advantages, response_mask, shift_mean=True, eps=1e-8):
    zero = torch.zeros((), dtype=advantages.dtype)
    n = response_mask.sum()
    mean = torch.where(response_mask, advantages, zero).sum() / n
    c = torch.where(response_mask, advantages - mean, zero)
    var = (c * c).sum() / n
    out = c * torch.rsqrt(var)
    if not shift_mean:
        out = torch.where(response_mask, out + mean, zero)
    return out
