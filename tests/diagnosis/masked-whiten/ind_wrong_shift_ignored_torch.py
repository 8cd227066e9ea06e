# expect: whiten-shift-mean-ignored
# framework: torch
# style: always centres; shift_mean never read
import torch


def masked_whiten(advantages, response_mask, shift_mean=True, eps=1e-8):
    sel = advantages[response_mask]
    mean = sel.mean()
    var = ((sel - mean) ** 2).mean()
    out = torch.zeros_like(advantages)
    out[response_mask] = (sel - mean) / torch.sqrt(var + eps)
    return out
