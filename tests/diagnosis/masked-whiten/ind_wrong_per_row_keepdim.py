# expect: whiten-per-row
# framework: torch
# style: masked statistics along dim=-1 with keepdim
import torch


def masked_whiten(advantages, response_mask, shift_mean=True, eps=1e-8):
    m = response_mask
    x = torch.where(m, advantages, torch.zeros_like(advantages))
    n = m.sum(-1, keepdim=True)
    mean = x.sum(-1, keepdim=True) / n
    var = torch.where(m, (x - mean) ** 2, torch.zeros_like(x)).sum(-1, keepdim=True) / n
    w = (x - mean) / torch.sqrt(var + eps)
    if not shift_mean:
        w = w + mean
    return torch.where(m, w, torch.zeros_like(w))
