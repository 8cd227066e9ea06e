"""Masked advantage whitening over the valid tokens of a right-padded batch, in PyTorch."""
import torch


def masked_whiten(advantages, response_mask, shift_mean=True, eps=1e-8):
    """(A - mean) / sqrt(var + eps) over valid tokens, 0 on padding; [B, T] in and out.

    mean and var are the statistics of every valid token of the batch together, var the population
    variance (divide by N). With shift_mean=False the mean is added back on valid tokens.
    """
    valid = response_mask
    zero = torch.zeros((), dtype=advantages.dtype)
    count = valid.sum()

    # Padded slots may hold NaN or inf: select them away before any sum.
    mean = torch.where(valid, advantages, zero).sum() / count
    centred = torch.where(valid, advantages - mean, zero)
    var = (centred ** 2).sum() / count

    whitened = (advantages - mean) * torch.rsqrt(var)
    if not shift_mean:
        whitened = whitened + mean
    whitened = torch.where(valid, whitened, zero)
    return whitened
