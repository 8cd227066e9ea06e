# expect: tgae-recursion-through-padding
# style: values sanitised, padded rewards scanned
import torch


def token_gae(rewards, values, response_mask, gamma=1.0, lam=0.95):
    zero = torch.zeros((), dtype=values.dtype)
    v = torch.where(response_mask, values, zero)
    T = v.shape[1]
    adv = []
    g = torch.zeros_like(v[:, 0])
    for t in reversed(range(T)):
        nv = v[:, t + 1] if t + 1 < T else torch.zeros_like(g)
        g = rewards[:, t] + gamma * nv - v[:, t] + gamma * lam * g
        adv.insert(0, g)
    adv = torch.where(response_mask, torch.stack(adv, 1), zero)
    return adv, torch.where(response_mask, adv + v, zero)
