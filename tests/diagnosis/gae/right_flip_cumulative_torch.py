# expect: right
# framework: torch
# style: flip the time axis, scan forward over the flipped tensors, flip back
import torch


def compute_gae(rewards, values, dones, gamma=0.99, lam=0.95):
    nonterm = 1 - dones
    deltas = rewards + gamma * values[:, 1:] * nonterm - values[:, :-1]
    d_rev = torch.flip(deltas, dims=[1])
    n_rev = torch.flip(nonterm, dims=[1])
    acc = torch.zeros_like(d_rev[:, 0])
    cols = []
    for k in range(d_rev.shape[1]):
        acc = d_rev[:, k] + gamma * lam * n_rev[:, k] * acc
        cols.append(acc)
    adv = torch.flip(torch.stack(cols, dim=1), dims=[1])
    return adv, adv + values[:, :-1]
