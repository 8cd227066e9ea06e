# expect: gae-forward-scan
# framework: torch
# style: forward scan with a running carry over the batch columns
import torch


def compute_gae(rewards, values, dones, gamma=0.99, lam=0.95):
    B, T = rewards.shape
    adv = torch.zeros_like(rewards)
    gae = torch.zeros(B, dtype=rewards.dtype)
    for t in range(T):
        nonterminal = 1.0 - dones[:, t]
        delta = rewards[:, t] + gamma * values[:, t + 1] * nonterminal - values[:, t]
        gae = delta + gamma * lam * nonterminal * gae
        adv[:, t] = gae
    return adv, adv + values[:, :T]
