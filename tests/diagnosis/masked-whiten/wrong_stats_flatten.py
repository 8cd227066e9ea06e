# expect: whiten-stats-over-padding
# style: flattened tensor statistics
import torch


def masked_whiten(advantages, response_mask, shift_mean=True, eps=1e-8):
    flat = advantages.reshape(-1)
    mean, var = flat.mean(), flat.pow(2).mean() - flat.mean() ** 2
    normed = (advantages - mean) * (var + eps).rsqrt()
    if not shift_mean:
        normed = normed + mean
    return torch.where(response_mask, normed, 0.0)
