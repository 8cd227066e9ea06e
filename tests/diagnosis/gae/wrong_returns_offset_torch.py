# expect: gae-returns-offset
# framework: torch
# style: next_values variable reused for the targets
import torch


def compute_gae(rewards, values, dones, gamma=0.99, lam=0.95):
    cur_values = values[:, :-1]
    next_values = values[:, 1:]
    mask = 1.0 - dones
    deltas = rewards + gamma * next_values * mask - cur_values
    advantages = torch.zeros_like(deltas)
    gae = torch.zeros_like(deltas[:, 0])
    for t in reversed(range(deltas.shape[1])):
        gae = deltas[:, t] + gamma * lam * mask[:, t] * gae
        advantages[:, t] = gae
    returns = advantages + next_values
    return advantages, returns
