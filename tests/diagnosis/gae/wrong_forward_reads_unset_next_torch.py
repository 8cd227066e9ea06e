# expect: gae-forward-scan
# framework: torch
# style: forward loop over time reading adv[:, t + 1] before it has been written (advantages equal the TD errors)
import torch


def compute_gae(rewards, values, dones, gamma=0.99, lam=0.95):
    B, T = rewards.shape
    adv = torch.zeros(B, T + 1, dtype=rewards.dtype)
    for t in range(T):
        not_done = 1.0 - dones[:, t]
        delta = rewards[:, t] + gamma * values[:, t + 1] * not_done - values[:, t]
        adv[:, t] = delta + gamma * lam * not_done * adv[:, t + 1]
    adv = adv[:, :T]
    return adv, adv + values[:, :T]
