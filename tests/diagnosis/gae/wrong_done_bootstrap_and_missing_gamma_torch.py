# expect: gae-done-bootstrap gae-missing-gamma
# framework: torch
# style: lists then stack; no done mask on the bootstrap and lambda-only decay
import torch


def compute_gae(rewards, values, dones, gamma=0.99, lam=0.95):
    T = rewards.shape[1]
    gae = torch.zeros_like(rewards[:, 0])
    out = []
    for t in range(T - 1, -1, -1):
        delta = rewards[:, t] + gamma * values[:, t + 1] - values[:, t]
        gae = delta + lam * (1.0 - dones[:, t]) * gae
        out.insert(0, gae)
    adv = torch.stack(out, dim=1)
    return adv, adv + values[:, :T]
