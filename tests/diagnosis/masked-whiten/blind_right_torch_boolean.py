# expect: right
# framework: torch
# style: valid tokens gathered with a boolean index, var(unbiased=False)
import torch


def masked_whiten(advantages, response_mask, shift_mean=True, eps=1e-8):
    valid = advantages[response_mask]
    mean = valid.mean()
    var = valid.var(unbiased=False)
    out = torch.zeros_like(advantages)
    w = (valid - mean) / torch.sqrt(var + eps)
    out[response_mask] = w if shift_mean else w + mean
    return out
