# expect: whiten-padding-nonzero
# framework: torch
# style: output multiplied by the float mask
import torch


def masked_whiten(advantages, response_mask, shift_mean=True, eps=1e-8):
    valid = advantages[response_mask]
    mean = valid.mean()
    var = valid.var(unbiased=False)
    w = (advantages - mean) * torch.rsqrt(var + eps)
    if not shift_mean:
        w = w + mean
    return w * response_mask.to(w.dtype)
