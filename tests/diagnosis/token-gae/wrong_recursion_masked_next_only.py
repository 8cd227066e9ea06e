# expect: tgae-recursion-through-padding
# style: masks the bootstrap, not the carry
import torch


def token_gae(rewards, values, response_mask, gamma=1.0, lam=0.95):
    B, T = values.shape
    zero = torch.zeros((), dtype=values.dtype)
    adv = torch.zeros_like(values)
    carry = torch.zeros(B, dtype=values.dtype)
    for t in reversed(range(T)):
        nxt = torch.where(response_mask[:, t + 1], values[:, t + 1], zero) if t + 1 < T else torch.zeros(B, dtype=values.dtype)
        carry = rewards[:, t] + gamma * nxt - values[:, t] + gamma * lam * carry
        adv[:, t] = carry
    adv = torch.where(response_mask, adv, zero)
    return adv, torch.where(response_mask, adv + values, zero)
