# expect: right
# style: SB3-style (A - mean) / (std + eps), population std, float64
import torch


def masked_whiten(advantages, response_mask, shift_mean=True, eps=1e-8):
    x = advantages.double()
    m = response_mask
    n = m.sum()
    mu = torch.where(m, x, 0.0).sum() / n
    sd = torch.sqrt((torch.where(m, x - mu, 0.0) ** 2).sum() / n)
    z = (x - mu) / (sd + eps)
    if not shift_mean:
        z = z + mu
    return torch.where(m, z, 0.0)
