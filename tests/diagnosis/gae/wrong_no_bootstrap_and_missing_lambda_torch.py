# expect: gae-no-bootstrap gae-missing-lambda
# framework: torch
# style: next values with a zero last column, gamma-only decay
import torch
import torch.nn.functional as F


def compute_gae(rewards, values, dones, gamma=0.99, lam=0.95):
    T = rewards.shape[-1]
    next_values = F.pad(values[:, 1:T], (0, 1))
    not_done = 1 - dones
    deltas = rewards + gamma * next_values * not_done - values[:, :T]
    adv = torch.zeros_like(deltas)
    carry = 0.0
    for t in reversed(range(T)):
        carry = deltas[:, t] + gamma * not_done[:, t] * carry
        adv[:, t] = carry
    return adv, adv + values[:, :T]
