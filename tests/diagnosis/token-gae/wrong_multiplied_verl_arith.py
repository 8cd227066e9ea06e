# expect: tgae-mask-multiplied
# style: verl-style arithmetic masking of raw inputs
import torch


def token_gae(rewards, values, response_mask, gamma=1.0, lam=0.95):
    m = response_mask.double()
    B, T = values.shape
    nextvalues = torch.zeros(B, dtype=torch.float64)
    lastgaelam = torch.zeros(B, dtype=torch.float64)
    adv = torch.zeros(B, T, dtype=torch.float64)
    for t in reversed(range(T)):
        delta = rewards[:, t] + gamma * nextvalues - values[:, t]
        lastgaelam_ = delta + gamma * lam * lastgaelam
        nextvalues = values[:, t] * m[:, t] + (1 - m[:, t]) * nextvalues
        lastgaelam = lastgaelam_ * m[:, t] + (1 - m[:, t]) * lastgaelam
        adv[:, t] = lastgaelam * m[:, t]
    return adv, (adv + values) * m
