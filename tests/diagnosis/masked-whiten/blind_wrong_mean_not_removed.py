# expect: whiten-mean-handling
# framework: torch
# style: scaled by the std but never centred
import torch


def masked_whiten(advantages, response_mask, shift_mean=True, eps=1e-8):
    valid = advantages[response_mask]
    mean = valid.mean()
    var = ((valid - mean) ** 2).mean()
    out = torch.zeros_like(advantages)
    scaled = valid * torch.rsqrt(var + eps)
    out[response_mask] = scaled if shift_mean else scaled + mean
    return out
