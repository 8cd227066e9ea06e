import torch


def compute_gae(rewards, values, dones, gamma=0.99, lam=0.95):
    T = rewards.shape[1]
    out = []
    carry = torch.zeros(rewards.shape[0], dtype=rewards.dtype)
    for t in range(T - 1, -1, -1):
        mask = 1 - dones[:, t]
        delta = rewards[:, t] + gamma * mask * values[:, t + 1] - values[:, t]
        carry = delta + gamma * lam * mask * carry
        out.append(carry)
    advantages = torch.stack(out[::-1], dim=1)
    return advantages, advantages + values[:, :-1]
