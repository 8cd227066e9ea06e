# expect: tgae-mask-multiplied
# framework: torch
# style: verl's masked carry written with arithmetic (x * m + (1 - m) * y)
import torch


def token_gae(rewards, values, response_mask, gamma=1.0, lam=0.95):
    m = response_mask.to(values.dtype)
    B, T = values.shape
    nextvalues = torch.zeros(B, dtype=values.dtype)
    lastgaelam = torch.zeros(B, dtype=values.dtype)
    rev = []
    for t in reversed(range(T)):
        delta = rewards[:, t] + gamma * nextvalues - values[:, t]
        new = delta + gamma * lam * lastgaelam
        nextvalues = values[:, t] * m[:, t] + (1 - m[:, t]) * nextvalues
        lastgaelam = new * m[:, t] + (1 - m[:, t]) * lastgaelam
        rev.append(lastgaelam * m[:, t])
    adv = torch.stack(rev[::-1], dim=1)
    return adv, (adv + values) * m
