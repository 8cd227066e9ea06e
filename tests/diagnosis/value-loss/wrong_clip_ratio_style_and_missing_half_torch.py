# expect: value-clip-ratio-style value-missing-half
# framework: torch
# style: ratio-style value clip and no 1/2
import torch


def ppo_value_loss(values, old_values, returns, clip_eps=0.2):
    old = old_values.detach()
    target = returns.detach()
    clipped = old * (values / old).clamp(1 - clip_eps, 1 + clip_eps)
    return torch.maximum((values - target).square(), (clipped - target).square()).mean()
