# expect: whiten-unbiased-variance
# style: CleanRL-style std() + eps on the valid tokens
import torch


def masked_whiten(advantages, response_mask, shift_mean=True, eps=1e-8):
    valid = advantages[response_mask]
    mu = valid.mean()
    sd = valid.std()
    z = (advantages - mu) / (sd + eps)
    if not shift_mean:
        z = z + mu
    return z.masked_fill(~response_mask, 0.0)
