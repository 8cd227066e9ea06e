# expect: tgae-forward-scan
# style: vectorised deltas, forward accumulation
import torch


def token_gae(rewards, values, response_mask, gamma=1.0, lam=0.95):
    zero = torch.zeros((), dtype=values.dtype)
    v = torch.where(response_mask, values, zero)
    r = torch.where(response_mask, rewards, zero)
    nxt = torch.cat([v[:, 1:], torch.zeros_like(v[:, :1])], dim=1)
    delta = r + gamma * nxt - v
    out = []
    acc = torch.zeros_like(v[:, 0])
    for t in range(v.shape[1]):
        acc = torch.where(response_mask[:, t], delta[:, t] + gamma * lam * acc, zero)
        out.append(acc)
    adv = torch.stack(out, dim=1)
    return adv, torch.where(response_mask, adv + v, zero)
