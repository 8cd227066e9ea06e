# expect:
# expect-unnamed: with shift_mean=False divides the raw advantages by the std (no centring at all)
# framework: torch
import torch


def masked_whiten(advantages, response_mask, shift_mean=True, eps=1e-8):
    sel = advantages[response_mask]
    mean = sel.mean()
    var = ((sel - mean) ** 2).mean()
    if shift_mean:
        w = (sel - mean) / torch.sqrt(var + eps)
    else:
        w = sel / torch.sqrt(var + eps)
    return torch.zeros_like(advantages).masked_scatter(response_mask, w)
