# expect: gae-last-step-stale-bootstrap gae-missing-gamma
# framework: torch
# style: bootstrap from V(s_{T-1}) and lam-only recursion
import torch


def compute_gae(rewards, values, dones, gamma=0.99, lam=0.95):
    B, T = rewards.shape
    adv = torch.zeros_like(rewards)
    g = torch.zeros(B, dtype=rewards.dtype)
    for t in reversed(range(T)):
        nv = values[:, t] if t == T - 1 else values[:, t + 1]
        nd = 1 - dones[:, t]
        g = rewards[:, t] + gamma * nv * nd - values[:, t] + lam * nd * g
        adv[:, t] = g
    return adv, adv + values[:, :T]
