# expect: tgae-bootstrap-padding
# framework: torch
# style: lists then stack; rewards sanitised, the value after the last token taken from the tensor as is
import torch


def token_gae(rewards, values, response_mask, gamma=1.0, lam=0.95):
    B, T = rewards.shape
    r = rewards.masked_fill(~response_mask, 0.0)
    last = torch.zeros(B, dtype=rewards.dtype)
    out = []
    for t in range(T - 1, -1, -1):
        valid = response_mask[:, t]
        v_t = values[:, t].masked_fill(~valid, 0.0)
        v_next = values[:, t + 1] if t + 1 < T else torch.zeros(B, dtype=values.dtype)
        delta = r[:, t] + gamma * v_next - v_t
        last = torch.where(valid, delta + gamma * lam * last, torch.zeros_like(last))
        out.append(last)
    adv = torch.stack(out[::-1], dim=1)
    ret = torch.where(response_mask, adv + values, torch.zeros_like(adv))
    return adv, ret
