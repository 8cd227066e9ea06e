# expect: gae-last-step-stale-bootstrap
# framework: torch
# style: next values = values[:, 1:T] with the last column repeated
import torch


def compute_gae(rewards, values, dones, gamma=0.99, lam=0.95):
    T = rewards.shape[1]
    v = values[:, :T]
    next_v = torch.cat([v[:, 1:], v[:, -1:]], dim=1)
    nonterm = 1.0 - dones
    delta = rewards + gamma * next_v * nonterm - v
    adv = torch.empty_like(delta)
    run = torch.zeros_like(delta[:, 0])
    for t in reversed(range(T)):
        run = delta[:, t] + gamma * lam * nonterm[:, t] * run
        adv[:, t] = run
    return adv, adv + v
