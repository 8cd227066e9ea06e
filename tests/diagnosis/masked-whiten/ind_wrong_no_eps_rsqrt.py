# expect: whiten-no-eps
# framework: torch
# style: rsqrt of the variance alone
import torch


def masked_whiten(advantages, response_mask, shift_mean=True, eps=1e-8):
    sel = advantages[response_mask]
    mean = sel.mean()
    var = (sel - mean).pow(2).mean()
    w = (sel - mean) * torch.rsqrt(var)
    if not shift_mean:
        w = w + mean
    out = torch.zeros_like(advantages)
    out[response_mask] = w
    return out
