# expect: gae-missing-lambda
# expect-unnamed: advantages standardised per rollout before returning
# framework: torch
# style: lists then stack, gamma-only decay, and TRL-like whitening of the advantages
import torch


def compute_gae(rewards, values, dones, gamma=0.99, lam=0.95):
    T = rewards.shape[1]
    last = torch.zeros_like(rewards[:, 0])
    rev = []
    for t in reversed(range(T)):
        nt = 1.0 - dones[:, t]
        delta = rewards[:, t] + gamma * values[:, t + 1] * nt - values[:, t]
        last = delta + gamma * nt * last
        rev.append(last)
    adv = torch.stack(rev[::-1], dim=1)
    returns = adv + values[:, :T]
    mean = adv.mean(dim=1, keepdim=True)
    std = adv.std(dim=1, keepdim=True, unbiased=False)
    adv = (adv - mean) / (std + 1e-8)
    return adv, returns
