# expect: gae-missing-lambda
# framework: torch
# style: vectorised deltas then a reverse scan with discount = gamma * (1 - done)
import torch


def compute_gae(rewards, values, dones, gamma=0.99, lam=0.95):
    discount = gamma * (1.0 - dones)
    deltas = rewards + discount * values[:, 1:] - values[:, :-1]
    adv = torch.zeros_like(deltas)
    acc = torch.zeros_like(deltas[:, -1])
    for t in range(deltas.shape[1] - 1, -1, -1):
        acc = deltas[:, t] + discount[:, t] * acc
        adv[:, t] = acc
    return adv, adv + values[:, :-1]
