# expect: whiten-shift-mean-ignored
# framework: torch
# style: helper that whitens, called without forwarding shift_mean
import torch


def _whiten(x, mask, eps, shift_mean=True):
    n = mask.sum()
    mu = torch.where(mask, x, 0.0).sum() / n
    var = torch.where(mask, (x - mu) ** 2, 0.0).sum() / n
    w = (x - mu) * torch.rsqrt(var + eps)
    if not shift_mean:
        w = w + mu
    return torch.where(mask, w, 0.0)


def masked_whiten(advantages, response_mask, shift_mean=True, eps=1e-8):
    return _whiten(advantages, response_mask, eps)
