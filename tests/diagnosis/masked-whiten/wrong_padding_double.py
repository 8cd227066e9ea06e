# expect: whiten-padding-nonzero
# style: float64 moments, no final mask
import torch


def masked_whiten(advantages, response_mask, shift_mean=True, eps=1e-8):
    x = advantages.double()
    vals = x[response_mask]
    m = vals.mean()
    v = vals.var(unbiased=False)
    y = (x - m) * torch.rsqrt(v + eps)
    if not shift_mean:
        y = y + m
    return y
