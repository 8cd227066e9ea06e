# expect: right
# framework: torch
# style: verl's compute_gae_advantage_return loop, masked tokens skipped with torch.where
import torch


def token_gae(rewards, values, response_mask, gamma=1.0, lam=0.95):
    B, T = rewards.shape
    zero = torch.zeros((), dtype=values.dtype)
    nextvalues = torch.zeros(B, dtype=values.dtype)
    lastgaelam = torch.zeros(B, dtype=values.dtype)
    adv_rev = []
    for t in reversed(range(T)):
        m = response_mask[:, t]
        r = torch.where(m, rewards[:, t], zero)
        v = torch.where(m, values[:, t], zero)
        delta = r + gamma * nextvalues - v
        new_gae = delta + gamma * lam * lastgaelam
        lastgaelam = torch.where(m, new_gae, lastgaelam)
        nextvalues = torch.where(m, v, nextvalues)
        adv_rev.append(torch.where(m, lastgaelam, zero))
    advantages = torch.stack(adv_rev[::-1], dim=1)
    returns = torch.where(response_mask, advantages + torch.where(response_mask, values, zero), zero)
    return advantages, returns
