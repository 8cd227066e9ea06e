# expect: tgae-bootstrap-padding
# framework: torch
# style: torch, next values = values shifted left with a zero column, only the current token masked
import torch


def token_gae(rewards, values, response_mask, gamma=1.0, lam=0.95):
    m = response_mask
    z = torch.zeros_like(values)
    next_values = torch.cat([values[:, 1:], torch.zeros_like(values[:, :1])], dim=1)
    delta = torch.where(m, rewards + gamma * next_values - values, z)
    adv = torch.zeros_like(values)
    gae = torch.zeros(values.shape[0], dtype=values.dtype)
    for t in reversed(range(values.shape[1])):
        gae = torch.where(m[:, t], delta[:, t] + gamma * lam * gae, torch.zeros_like(gae))
        adv[:, t] = gae
    return adv, torch.where(m, adv + values, z)
