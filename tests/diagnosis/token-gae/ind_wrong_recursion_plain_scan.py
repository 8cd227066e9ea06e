# expect: tgae-recursion-through-padding tgae-bootstrap-padding
# framework: torch
# style: the textbook scan over all T columns, masking only the outputs
import torch


def token_gae(rewards, values, response_mask, gamma=1.0, lam=0.95):
    B, T = rewards.shape
    lastgaelam = torch.zeros(B, dtype=rewards.dtype)
    advs = [None] * T
    for t in reversed(range(T)):
        nextvalues = values[:, t + 1] if t < T - 1 else torch.zeros(B, dtype=values.dtype)
        delta = rewards[:, t] + gamma * nextvalues - values[:, t]
        lastgaelam = delta + gamma * lam * lastgaelam
        advs[t] = lastgaelam
    adv = torch.stack(advs, dim=1)
    z = torch.zeros_like(adv)
    return torch.where(response_mask, adv, z), torch.where(response_mask, adv + values, z)
