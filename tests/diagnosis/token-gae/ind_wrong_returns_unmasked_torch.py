# expect: tgae-padding-nonzero
# framework: torch
# style: advantages right, returns = advantages + values over the whole grid
import torch


def token_gae(rewards, values, response_mask, gamma=1.0, lam=0.95):
    m = response_mask
    z = torch.zeros_like(values)
    v = torch.where(m, values, z)
    r = torch.where(m, rewards, z)
    B, T = v.shape
    adv = torch.zeros_like(v)
    gae = torch.zeros(B, dtype=v.dtype)
    for t in reversed(range(T)):
        nv = v[:, t + 1] if t + 1 < T else torch.zeros(B, dtype=v.dtype)
        gae = torch.where(m[:, t], r[:, t] + gamma * nv - v[:, t] + gamma * lam * gae, torch.zeros_like(gae))
        adv[:, t] = gae
    returns = adv + values
    return adv, returns
