# expect: tgae-recursion-through-padding
# framework: torch
# style: sanitised values, but the padded rewards' deltas are kept in the carry
import torch


def token_gae(rewards, values, response_mask, gamma=1.0, lam=0.95):
    m = response_mask
    v = values.masked_fill(~m, 0.0)
    B, T = v.shape
    adv = torch.zeros_like(v)
    gae = torch.zeros(B, dtype=v.dtype)
    for t in range(T - 1, -1, -1):
        nv = v[:, t + 1] if t + 1 < T else torch.zeros(B, dtype=v.dtype)
        delta = rewards[:, t] + gamma * nv - v[:, t]
        gae = delta + gamma * lam * gae
        adv[:, t] = gae.masked_fill(~m[:, t], 0.0)
    return adv, (adv + v).masked_fill(~m, 0.0)
