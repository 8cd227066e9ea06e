# expect: mc-return-for-lambda-return
# framework: torch
# style: a second backward loop for discounted returns
import torch


def compute_gae(rewards, values, dones, gamma=0.99, lam=0.95):
    B, T = rewards.shape
    adv = torch.zeros_like(rewards)
    last = torch.zeros(B, dtype=rewards.dtype)
    for t in reversed(range(T)):
        nonterm = 1.0 - dones[:, t]
        delta = rewards[:, t] + gamma * values[:, t + 1] * nonterm - values[:, t]
        last = delta + gamma * lam * nonterm * last
        adv[:, t] = last
    ret = torch.zeros_like(rewards)
    g = values[:, T]
    for t in reversed(range(T)):
        g = rewards[:, t] + gamma * (1.0 - dones[:, t]) * g
        ret[:, t] = g
    return adv, ret
