# expect: gae-forward-scan gae-returns-offset
# framework: torch
# style: forward index scan over a T+1 buffer, and value targets built on values[:, 1:]
import torch


def compute_gae(rewards, values, dones, gamma=0.99, lam=0.95):
    B, T = rewards.shape
    buf = torch.zeros(B, T + 1, dtype=rewards.dtype)
    for t in range(T):
        keep = 1.0 - dones[:, t]
        td = rewards[:, t] + gamma * keep * values[:, t + 1] - values[:, t]
        buf[:, t] = td + gamma * lam * keep * buf[:, t + 1]
    advantages = buf[:, :T]
    returns = advantages + values[:, 1:]
    return advantages, returns
