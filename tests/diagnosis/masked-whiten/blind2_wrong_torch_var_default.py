# expect: whiten-unbiased-variance
# framework: torch
# style: torch.var's default on the valid tokens
import torch


def masked_whiten(advantages, response_mask, shift_mean=True, eps=1e-8):
    v = advantages[response_mask]
    mean = v.mean()
    var = v.var() if v.numel() > 1 else torch.zeros((), dtype=v.dtype)
    w = (v - mean) / torch.sqrt(var + eps)
    out = torch.zeros_like(advantages)
    out[response_mask] = w if shift_mean else w + mean
    return out
