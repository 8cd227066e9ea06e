# expect: tgae-forward-scan
# framework: torch
# style: forward loop reading A[t+1] from a zero buffer before it is written
import torch


def token_gae(rewards, values, response_mask, gamma=1.0, lam=0.95):
    B, T = rewards.shape
    m = response_mask
    z = torch.zeros_like(rewards)
    r = torch.where(m, rewards, z)
    v = torch.where(m, values, z)
    adv = torch.zeros_like(rewards)
    for t in range(T):
        v_next = v[:, t + 1] if t + 1 < T else torch.zeros(B, dtype=v.dtype)
        a_next = adv[:, t + 1] if t + 1 < T else torch.zeros(B, dtype=v.dtype)
        delta = r[:, t] + gamma * v_next - v[:, t]
        adv[:, t] = torch.where(m[:, t], delta + gamma * lam * a_next, torch.zeros_like(delta))
    return adv, torch.where(m, adv + v, z)
