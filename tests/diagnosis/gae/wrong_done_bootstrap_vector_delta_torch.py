# expect: gae-done-bootstrap
# framework: torch
# style: vectorised TD errors without the done mask, masked reverse scan
import torch


def compute_gae(rewards, values, dones, gamma=0.99, lam=0.95):
    deltas = rewards + gamma * values[:, 1:] - values[:, :-1]
    advantages = torch.zeros_like(deltas)
    carry = torch.zeros_like(deltas[:, 0])
    for t in reversed(range(deltas.shape[1])):
        carry = deltas[:, t] + gamma * lam * (1 - dones[:, t]) * carry
        advantages[:, t] = carry
    return advantages, advantages + values[:, :-1]
