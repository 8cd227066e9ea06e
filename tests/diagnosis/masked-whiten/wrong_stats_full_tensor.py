# expect: whiten-stats-over-padding
# style: mean and var of the whole tensor
import torch


def masked_whiten(advantages, response_mask, shift_mean=True, eps=1e-8):
    mean = advantages.mean()
    var = advantages.var(unbiased=False)
    w = (advantages - mean) / torch.sqrt(var + eps)
    if not shift_mean:
        w = w + mean
    return w.masked_fill(~response_mask, 0.0)
