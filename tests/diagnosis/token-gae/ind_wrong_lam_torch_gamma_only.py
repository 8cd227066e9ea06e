# expect: tgae-lam-ignored
# framework: torch
# style: carry discounted by gamma only
import torch


def token_gae(rewards, values, response_mask, gamma=1.0, lam=0.95):
    m = response_mask
    z = torch.zeros_like(values)
    v = torch.where(m, values, z)
    r = torch.where(m, rewards, z)
    nxt = torch.cat([v[:, 1:], z[:, :1]], 1)
    delta = torch.where(m, r + gamma * nxt - v, z)
    adv = torch.zeros_like(delta)
    acc = torch.zeros_like(delta[:, 0])
    for t in range(delta.shape[1] - 1, -1, -1):
        acc = torch.where(m[:, t], delta[:, t] + gamma * acc, torch.zeros_like(acc))
        adv[:, t] = acc
    return adv, torch.where(m, adv + v, z)
