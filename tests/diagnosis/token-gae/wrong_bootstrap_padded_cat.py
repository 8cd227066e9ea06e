# expect: tgae-bootstrap-padding
# style: values shifted with a zero appended
import torch


def token_gae(rewards, values, response_mask, gamma=1.0, lam=0.95):
    zero = torch.zeros((), dtype=values.dtype)
    next_values = torch.cat([values[:, 1:], torch.zeros_like(values[:, :1])], dim=1)
    deltas = rewards + gamma * next_values - values
    adv = torch.zeros_like(values)
    running = torch.zeros_like(values[:, 0])
    for t in reversed(range(values.shape[1])):
        running = torch.where(response_mask[:, t], deltas[:, t] + gamma * lam * running, zero)
        adv[:, t] = running
    return adv, torch.where(response_mask, adv + values, zero)
