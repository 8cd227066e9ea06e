# expect: right
# framework: torch
# style: flip the sequence, forward scan on the flipped tensors, flip back
import torch


def token_gae(rewards, values, response_mask, gamma=1.0, lam=0.95):
    m = response_mask
    z = torch.zeros_like(rewards)
    v = torch.where(m, values, z)
    r = torch.where(m, rewards, z)
    next_v = torch.nn.functional.pad(v[:, 1:], (0, 1))
    delta = torch.where(m, r + gamma * next_v - v, z)
    d_rev = delta.flip(1)
    m_rev = m.flip(1)
    acc = torch.zeros(rewards.shape[0], dtype=rewards.dtype)
    cols = []
    for k in range(d_rev.shape[1]):
        acc = torch.where(m_rev[:, k], d_rev[:, k] + gamma * lam * acc, torch.zeros_like(acc))
        cols.append(acc)
    adv = torch.stack(cols, 1).flip(1)
    return adv, torch.where(m, adv + v, z)
