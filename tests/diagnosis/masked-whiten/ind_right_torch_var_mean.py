# expect: right
# framework: torch
# style: torch.var_mean(correction=0) on the selected tokens, masked_scatter back
import torch


def masked_whiten(advantages, response_mask, shift_mean=True, eps=1e-8):
    sel = advantages[response_mask]
    var, mean = torch.var_mean(sel, correction=0)
    w = (sel - mean) / torch.sqrt(var + eps)
    if not shift_mean:
        w = w + mean
    return torch.zeros_like(advantages).masked_scatter(response_mask, w)
