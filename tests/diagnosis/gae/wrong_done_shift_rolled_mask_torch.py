# expect: gae-done-shift
# framework: torch
# style: a "next done" tensor made by shifting dones left one step
import torch


def compute_gae(rewards, values, dones, gamma=0.99, lam=0.95):
    B, T = rewards.shape
    next_dones = torch.cat([dones[:, 1:], torch.zeros(B, 1, dtype=dones.dtype)], dim=1)
    nonterminal = 1.0 - next_dones
    delta = rewards + gamma * values[:, 1:] * nonterminal - values[:, :-1]
    adv = torch.zeros_like(rewards)
    last = torch.zeros(B, dtype=rewards.dtype)
    for t in reversed(range(T)):
        last = delta[:, t] + gamma * lam * nonterminal[:, t] * last
        adv[:, t] = last
    return adv, adv + values[:, :-1]
