# expect: whiten-stats-over-padding
# style: manual moments over B * T
import torch


def masked_whiten(advantages, response_mask, shift_mean=True, eps=1e-8):
    n = advantages.numel()
    mu = advantages.sum() / n
    var = ((advantages - mu) ** 2).sum() / n
    out = (advantages - mu) * torch.rsqrt(var + eps)
    if not shift_mean:
        out += mu
    return torch.where(response_mask, out, torch.zeros((), dtype=out.dtype))
