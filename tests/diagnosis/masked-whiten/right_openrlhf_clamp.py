# expect: right
# style: OpenRLHF: population var, rsqrt(clamp(var, eps)), padding reset
import torch


def masked_whiten(advantages, response_mask, shift_mean=True, eps=1e-8):
    zero = torch.zeros((), dtype=advantages.dtype)
    a = torch.where(response_mask, advantages, zero)
    num = response_mask.sum()
    mean = a.sum() / num
    var = (torch.where(response_mask, advantages - mean, zero) ** 2).sum() / num
    rstd = (var + eps).rsqrt()
    w = (a - mean) * rstd
    if not shift_mean:
        w = w + mean
    return torch.where(response_mask, w, zero)
