# expect: value-missing-half
# framework: torch
# style: OpenRLHF-like without the 0.5
import torch


def ppo_value_loss(values, old_values, returns, clip_eps=0.2):
    old_values = old_values.detach()
    returns = returns.detach()
    values_clipped = old_values + (values - old_values).clamp(-clip_eps, clip_eps)
    surr1 = (values_clipped - returns) ** 2
    surr2 = (values - returns) ** 2
    return torch.max(surr1, surr2).mean()
