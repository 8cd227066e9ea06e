# expect: gae-done-recursion gae-no-bootstrap
# framework: torch
# style: pads the next values with a zero column instead of values[:, T], and the carry ignores dones
import torch


def compute_gae(rewards, values, dones, gamma=0.99, lam=0.95):
    B, T = rewards.shape
    v = values[:, :T]
    next_v = torch.cat([v[:, 1:], torch.zeros(B, 1, dtype=v.dtype)], dim=1)
    delta = rewards + gamma * next_v * (1 - dones) - v
    adv = torch.zeros_like(delta)
    running = torch.zeros(B, dtype=delta.dtype)
    for t in range(T - 1, -1, -1):
        running = delta[:, t] + gamma * lam * running
        adv[:, t] = running
    return adv, adv + v
