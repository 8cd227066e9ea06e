# expect: tgae-lam-ignored
# style: carry discounted by gamma only
import torch


def token_gae(rewards, values, response_mask, gamma=1.0, lam=0.95):
    B, T = values.shape
    zero = torch.zeros((), dtype=values.dtype)
    adv = torch.zeros_like(values)
    g = torch.zeros(B, dtype=values.dtype)
    for t in reversed(range(T)):
        nv = torch.where(response_mask[:, t + 1], values[:, t + 1], zero) if t < T - 1 else torch.zeros(B, dtype=values.dtype)
        g = torch.where(response_mask[:, t], rewards[:, t] + gamma * nv - values[:, t] + gamma * g, zero)
        adv[:, t] = g
    return adv, torch.where(response_mask, adv + values, zero)
