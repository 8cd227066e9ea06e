# expect: tgae-padding-nonzero
# style: lists then stack, returns left raw
import torch


def token_gae(rewards, values, response_mask, gamma=1.0, lam=0.95):
    B, T = values.shape
    zero = torch.zeros((), dtype=values.dtype)
    gaes = []
    last = torch.zeros(B, dtype=values.dtype)
    for t in range(T - 1, -1, -1):
        if t == T - 1:
            nextv = torch.zeros(B, dtype=values.dtype)
        else:
            nextv = values[:, t + 1].masked_fill(~response_mask[:, t + 1], 0.0)
        d = rewards[:, t] + gamma * nextv - values[:, t]
        last = (d + gamma * lam * last).masked_fill(~response_mask[:, t], 0.0)
        gaes.append(last)
    advantages = torch.stack(gaes[::-1], dim=-1)
    returns = values + advantages
    return advantages, returns
