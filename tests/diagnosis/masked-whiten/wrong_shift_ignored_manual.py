# expect: whiten-shift-mean-ignored
# style: always centred, manual moments
import torch


def masked_whiten(advantages, response_mask, shift_mean=True, eps=1e-8):
    zero = torch.zeros((), dtype=advantages.dtype)
    n = response_mask.sum()
    mu = torch.where(response_mask, advantages, zero).sum() / n
    centred = torch.where(response_mask, advantages - mu, zero)
    var = centred.pow(2).sum() / n
    return centred / torch.sqrt(var + eps)
