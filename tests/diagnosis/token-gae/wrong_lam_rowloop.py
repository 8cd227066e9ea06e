# expect: tgae-lam-ignored
# style: per-row, gamma-discounted TD sum
import torch


def token_gae(rewards, values, response_mask, gamma=1.0, lam=0.95):
    B, T = rewards.shape
    adv = torch.zeros_like(values)
    for b in range(B):
        n = int(response_mask[b].sum())
        acc = 0.0
        for t in reversed(range(n)):
            nv = values[b, t + 1] if t + 1 < n else 0.0
            acc = rewards[b, t] + gamma * nv - values[b, t] + gamma * acc
            adv[b, t] = acc
    return adv, torch.where(response_mask, adv + values, torch.zeros_like(values))
