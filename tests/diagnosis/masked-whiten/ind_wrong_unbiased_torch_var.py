# expect: whiten-unbiased-variance
# framework: torch
# style: torch.var default (Bessel), nan guarded for a single token
import torch


def masked_whiten(advantages, response_mask, shift_mean=True, eps=1e-8):
    sel = advantages[response_mask]
    mean = sel.mean()
    var = torch.var(sel)
    w = (sel - mean) / torch.sqrt(var + eps)
    if not shift_mean:
        w = w + mean
    return torch.zeros_like(advantages).masked_scatter(response_mask, w)
