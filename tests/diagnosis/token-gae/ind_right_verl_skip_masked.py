# expect: right
# framework: torch
# style: verl compute_gae_advantage_return with the "skip masked tokens" carry, written with torch.where
import torch


def token_gae(rewards, values, response_mask, gamma=1.0, lam=0.95):
    B, T = rewards.shape
    zero = torch.zeros(B, dtype=rewards.dtype)
    nextvalues = zero
    lastgaelam = zero
    advantages_reversed = []
    for t in reversed(range(T)):
        m = response_mask[:, t]
        delta = rewards[:, t] + gamma * nextvalues - values[:, t]
        lastgaelam_ = delta + gamma * lam * lastgaelam
        nextvalues = torch.where(m, values[:, t], nextvalues)
        lastgaelam = torch.where(m, lastgaelam_, lastgaelam)
        advantages_reversed.append(torch.where(m, lastgaelam_, zero))
    advantages = torch.stack(advantages_reversed[::-1], dim=1)
    returns = torch.where(response_mask, advantages + values, torch.zeros_like(values))
    return advantages, returns
