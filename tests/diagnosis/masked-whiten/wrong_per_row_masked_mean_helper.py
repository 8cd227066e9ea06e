# expect: whiten-per-row
# style: masked_mean helper with dim=-1
import torch


def masked_mean(x, mask, dim):
    return torch.where(mask, x, torch.zeros((), dtype=x.dtype)).sum(dim, keepdim=True) / mask.sum(dim, keepdim=True)


def masked_whiten(advantages, response_mask, shift_mean=True, eps=1e-8):
    mean = masked_mean(advantages, response_mask, -1)
    var = masked_mean((advantages - mean) ** 2, response_mask, -1)
    whitened = (advantages - mean) * torch.rsqrt(var + eps)
    if not shift_mean:
        whitened += mean
    return torch.where(response_mask, whitened, torch.zeros((), dtype=whitened.dtype))
