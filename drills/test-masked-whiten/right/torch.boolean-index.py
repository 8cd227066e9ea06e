import torch


def masked_whiten(advantages, response_mask, shift_mean=True, eps=1e-8):
    values = advantages[response_mask].float()
    mean = values.mean()
    var = values.var(unbiased=False)
    out = torch.zeros_like(advantages, dtype=torch.float32)
    white = (values - mean) * torch.rsqrt(var + eps)
    out[response_mask] = white if shift_mean else white + mean
    return out
