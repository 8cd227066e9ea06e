# expect: whiten-no-eps
# framework: torch
# style: divides by the masked std, eps accepted but never used
import torch


def masked_whiten(advantages, response_mask, shift_mean=True, eps=1e-8):
    m = response_mask
    x = torch.where(m, advantages, torch.zeros_like(advantages))
    n = m.sum()
    mean = x.sum() / n
    var = torch.where(m, (x - mean) ** 2, torch.zeros_like(x)).sum() / n
    w = (x - mean) / var.sqrt()
    if not shift_mean:
        w = w + mean
    return torch.where(m, w, torch.zeros_like(w))
