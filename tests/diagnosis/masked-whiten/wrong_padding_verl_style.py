# expect: whiten-padding-nonzero
# style: verl masked_whiten with population var, padding not reset
import torch


def masked_whiten(advantages, response_mask, shift_mean=True, eps=1e-8):
    zero = torch.zeros((), dtype=advantages.dtype)
    n = response_mask.sum()
    mean = torch.where(response_mask, advantages, zero).sum() / n
    var = torch.where(response_mask, (advantages - mean) ** 2, zero).sum() / n
    whitened = (advantages - mean) * torch.rsqrt(var + eps)
    if not shift_mean:
        whitened += mean
    return whitened
