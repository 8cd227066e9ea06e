# expect: tgae-padding-nonzero
# style: returns = A + V without the mask
import torch


def token_gae(rewards, values, response_mask, gamma=1.0, lam=0.95):
    zero = torch.zeros((), dtype=values.dtype)
    T = values.shape[1]
    adv = torch.zeros_like(values)
    g = torch.zeros_like(values[:, 0])
    for t in reversed(range(T)):
        nv = torch.where(response_mask[:, t + 1], values[:, t + 1], zero) if t < T - 1 else torch.zeros_like(g)
        g = torch.where(response_mask[:, t], rewards[:, t] + gamma * nv - values[:, t] + gamma * lam * g, zero)
        adv[:, t] = g
    return adv, adv + values
