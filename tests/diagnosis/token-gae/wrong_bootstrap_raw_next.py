# expect: tgae-bootstrap-padding
# style: resets the carry but reads the raw next value
import torch


def token_gae(rewards, values, response_mask, gamma=1.0, lam=0.95):
    B, T = rewards.shape
    adv = torch.zeros_like(values)
    gae = torch.zeros(B, dtype=values.dtype)
    for t in range(T - 1, -1, -1):
        nv = values[:, t + 1] if t + 1 < T else torch.zeros(B, dtype=values.dtype)
        delta = rewards[:, t] + gamma * nv - values[:, t]
        gae = torch.where(response_mask[:, t], delta + gamma * lam * gae, torch.zeros_like(gae))
        adv[:, t] = gae
    return adv, torch.where(response_mask, adv + values, torch.zeros_like(adv))
