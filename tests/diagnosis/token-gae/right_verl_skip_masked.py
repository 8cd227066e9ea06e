# expect: right
# style: verl compute_gae_advantage_return with torch.where
import torch


def token_gae(rewards, values, response_mask, gamma=1.0, lam=0.95):
    zero = torch.zeros((), dtype=values.dtype)
    values = torch.where(response_mask, values, zero)
    rewards = torch.where(response_mask, rewards, zero)
    m = response_mask.to(values.dtype)
    nextvalues = torch.zeros_like(values[:, 0])
    lastgaelam = torch.zeros_like(values[:, 0])
    out = []
    for t in reversed(range(values.shape[1])):
        delta = rewards[:, t] + gamma * nextvalues - values[:, t]
        lastgaelam_ = delta + gamma * lam * lastgaelam
        nextvalues = values[:, t] * m[:, t] + (1 - m[:, t]) * nextvalues
        lastgaelam = lastgaelam_ * m[:, t] + (1 - m[:, t]) * lastgaelam
        out.append(lastgaelam)
    adv = torch.stack(out[::-1], dim=1)
    adv = torch.where(response_mask, adv, zero)
    return adv, torch.where(response_mask, adv + values, zero)
