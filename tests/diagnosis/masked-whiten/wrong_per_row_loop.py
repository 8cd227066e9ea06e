# expect: whiten-per-row
# style: loop over responses
import torch


def masked_whiten(advantages, response_mask, shift_mean=True, eps=1e-8):
    out = torch.zeros_like(advantages)
    for b in range(advantages.shape[0]):
        v = advantages[b][response_mask[b]]
        mu, var = v.mean(), v.var(unbiased=False)
        z = (v - mu) / torch.sqrt(var + eps)
        out[b][response_mask[b]] = z if shift_mean else z + mu
    return out
