# expect: whiten-padding-nonzero
# style: stats from adv[mask], whole tensor returned
import torch


def masked_whiten(advantages, response_mask, shift_mean=True, eps=1e-8):
    sel = advantages[response_mask]
    mu = sel.mean()
    sigma2 = ((sel - mu) ** 2).mean()
    out = (advantages - mu) / torch.sqrt(sigma2 + eps)
    return out if shift_mean else out + mu
