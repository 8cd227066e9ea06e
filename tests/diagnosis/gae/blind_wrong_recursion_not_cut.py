# expect: gae-done-recursion
# framework: torch
# style: the done cuts the TD error only
import torch


def compute_gae(rewards, values, dones, gamma=0.99, lam=0.95):
    B, T = rewards.shape
    adv = torch.zeros_like(rewards)
    last = torch.zeros(B, dtype=rewards.dtype)
    for t in reversed(range(T)):
        delta = rewards[:, t] + gamma * values[:, t + 1] * (1.0 - dones[:, t]) - values[:, t]
        last = delta + gamma * lam * last
        adv[:, t] = last
    return adv, adv + values[:, :T]
