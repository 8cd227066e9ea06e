# expect: tgae-padding-nonzero tgae-lam-ignored
# framework: torch
# style: gamma-only carry and returns on the raw values
import torch


def token_gae(rewards, values, response_mask, gamma=1.0, lam=0.95):
    B, T = rewards.shape
    adv = torch.zeros_like(rewards)
    for b in range(B):
        n = int(response_mask[b].sum())
        carry = rewards.new_zeros(())
        for t in range(n - 1, -1, -1):
            nv = values[b, t + 1] if t + 1 < n else 0.0
            carry = rewards[b, t] + gamma * nv - values[b, t] + gamma * carry
            adv[b, t] = carry
    return adv, adv + values
