# expect: whiten-shift-mean-ignored
# style: float64, returns the centred version in both branches
import torch


def masked_whiten(advantages, response_mask, shift_mean=True, eps=1e-8):
    x = advantages.double()
    vals = x[response_mask]
    mean = vals.mean()
    scale = torch.rsqrt(((vals - mean) ** 2).mean() + eps)
    out = torch.zeros_like(x)
    out[response_mask] = (vals - mean) * scale
    return out
