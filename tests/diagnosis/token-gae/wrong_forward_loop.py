# expect: tgae-forward-scan
# style: for t in range(T)
import torch


def token_gae(rewards, values, response_mask, gamma=1.0, lam=0.95):
    B, T = values.shape
    zero = torch.zeros((), dtype=values.dtype)
    adv = torch.zeros_like(values)
    prev = torch.zeros(B, dtype=values.dtype)
    for t in range(T):
        nv = torch.where(response_mask[:, t + 1], values[:, t + 1], zero) if t + 1 < T else torch.zeros(B, dtype=values.dtype)
        delta = rewards[:, t] + gamma * nv - values[:, t]
        prev = torch.where(response_mask[:, t], delta + gamma * lam * prev, zero)
        adv[:, t] = prev
    return adv, torch.where(response_mask, adv + values, zero)
