# expect: whiten-no-eps
# style: float64 moments, plain sqrt
import torch


def masked_whiten(advantages, response_mask, shift_mean=True, eps=1e-8):
    a = advantages.double()
    m = response_mask.double()
    n = m.sum()
    mean = torch.where(response_mask, a, 0.0).sum() / n
    var = torch.where(response_mask, (a - mean) ** 2, 0.0).sum() / n
    res = (a - mean) / var.sqrt()
    if not shift_mean:
        res = res + mean
    return torch.where(response_mask, res, 0.0)
