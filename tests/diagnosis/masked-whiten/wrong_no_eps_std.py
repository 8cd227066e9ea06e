# expect: whiten-no-eps
# style: divide by the std
import torch


def masked_whiten(advantages, response_mask, shift_mean=True, eps=1e-8):
    v = advantages[response_mask]
    mean = v.mean()
    std = v.std(unbiased=False)
    out = (advantages - mean) / std
    if not shift_mean:
        out = out + mean
    return out.masked_fill(~response_mask, 0.0)
