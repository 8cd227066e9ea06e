# expect: right
# style: statistics from adv[mask], population var
import torch


def masked_whiten(advantages, response_mask, shift_mean=True, eps=1e-8):
    vals = advantages[response_mask]
    mean = vals.mean()
    var = vals.var(unbiased=False)
    out = (advantages - mean) * torch.rsqrt(var + eps)
    if not shift_mean:
        out = out + mean
    return out.masked_fill(~response_mask, 0.0)
