# expect: tgae-recursion-through-padding
# style: masked next values vectorised, unmasked scan
import torch


def token_gae(rewards, values, response_mask, gamma=1.0, lam=0.95):
    zero = torch.zeros((), dtype=values.dtype)
    next_valid = torch.nn.functional.pad(response_mask[:, 1:], (0, 1), value=False)
    next_v = torch.where(next_valid, torch.nn.functional.pad(values[:, 1:], (0, 1)), zero)
    delta = rewards + gamma * next_v - values
    adv = torch.zeros_like(delta)
    run = torch.zeros_like(delta[:, 0])
    for t in reversed(range(delta.shape[1])):
        run = delta[:, t] + gamma * lam * run
        adv[:, t] = run
    adv = torch.where(response_mask, adv, zero)
    return adv, torch.where(response_mask, adv + values, zero)
