# expect: mc-return-for-lambda-return
# framework: torch
# style: returns from a second discounted scan
import torch


def token_gae(rewards, values, response_mask, gamma=1.0, lam=0.95):
    B, T = rewards.shape
    z = torch.zeros((), dtype=values.dtype)
    r = torch.where(response_mask, rewards, z)
    v = torch.where(response_mask, values, z)
    adv = torch.zeros_like(v)
    ret = torch.zeros_like(v)
    gae = torch.zeros(B, dtype=v.dtype)
    g = torch.zeros(B, dtype=v.dtype)
    for t in reversed(range(T)):
        nv = v[:, t + 1] if t + 1 < T else torch.zeros(B, dtype=v.dtype)
        delta = r[:, t] + gamma * nv - v[:, t]
        gae = torch.where(response_mask[:, t], delta + gamma * lam * gae, z)
        g = torch.where(response_mask[:, t], r[:, t] + gamma * g, z)
        adv[:, t] = gae
        ret[:, t] = g
    return adv, ret
