# expect: tgae-lam-ignored
# framework: torch
# style: discounted-cumsum helper called with gamma instead of gamma * lam
import torch


def discount_cumsum(x, mask, discount):
    out = torch.zeros_like(x)
    running = torch.zeros_like(x[:, 0])
    for t in reversed(range(x.shape[1])):
        running = torch.where(mask[:, t], x[:, t] + discount * running, torch.zeros_like(running))
        out[:, t] = running
    return out


def token_gae(rewards, values, response_mask, gamma=1.0, lam=0.95):
    m = response_mask
    v = values.masked_fill(~m, 0.0)
    r = rewards.masked_fill(~m, 0.0)
    nv = torch.nn.functional.pad(v[:, 1:], (0, 1))
    deltas = (r + gamma * nv - v).masked_fill(~m, 0.0)
    adv = discount_cumsum(deltas, m, gamma)
    return adv, (adv + v).masked_fill(~m, 0.0)
