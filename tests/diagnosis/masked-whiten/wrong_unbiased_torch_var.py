# expect: whiten-unbiased-variance
# style: torch.var default (Bessel)
import torch


def masked_whiten(advantages, response_mask, shift_mean=True, eps=1e-8):
    v = advantages[response_mask]
    mean = v.mean()
    var = torch.var(v)
    out = (advantages - mean) * torch.rsqrt(var + eps)
    if not shift_mean:
        out = out + mean
    return torch.where(response_mask, out, torch.zeros_like(out))
