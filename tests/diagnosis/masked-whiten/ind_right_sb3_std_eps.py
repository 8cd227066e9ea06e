# expect: right
# framework: torch
# style: SB3-style (A - mean) / (std + eps), which the prompt accepts
import torch


def masked_whiten(advantages, response_mask, shift_mean=True, eps=1e-8):
    m = response_mask
    n = m.sum()
    x = torch.where(m, advantages, torch.zeros_like(advantages))
    mean = x.sum() / n
    std = torch.sqrt(torch.where(m, (x - mean) ** 2, torch.zeros_like(x)).sum() / n)
    out = (x - mean) / (std + eps)
    if not shift_mean:
        out = out + mean
    return torch.where(m, out, torch.zeros_like(out))
