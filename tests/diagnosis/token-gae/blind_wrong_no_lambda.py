# expect: tgae-lam-ignored
# framework: torch
# style: the trace decays by gamma only
import torch


def token_gae(rewards, values, response_mask, gamma=1.0, lam=0.95):
    B, T = rewards.shape
    zero = torch.zeros((), dtype=values.dtype)
    r = torch.where(response_mask, rewards, zero)
    v = torch.where(response_mask, values, zero)
    adv = torch.zeros_like(v)
    last = torch.zeros(B, dtype=v.dtype)
    for t in reversed(range(T)):
        nv = v[:, t + 1] if t + 1 < T else torch.zeros(B, dtype=v.dtype)
        delta = r[:, t] + gamma * nv - v[:, t]
        last = torch.where(response_mask[:, t], delta + gamma * last, zero)
        adv[:, t] = last
    return adv, torch.where(response_mask, adv + v, zero)
