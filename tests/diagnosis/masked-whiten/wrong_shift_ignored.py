# expect: whiten-shift-mean-ignored
# style: flag accepted, never used
import torch


def masked_whiten(advantages, response_mask, shift_mean=True, eps=1e-8):
    v = advantages[response_mask]
    mean, var = v.mean(), v.var(unbiased=False)
    return ((advantages - mean) * torch.rsqrt(var + eps)).masked_fill(~response_mask, 0.0)
