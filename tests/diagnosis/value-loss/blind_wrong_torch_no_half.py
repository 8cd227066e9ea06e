# expect: value-missing-half
# framework: torch
# style: F.mse_loss-like, no 0.5
import torch


def ppo_value_loss(values, old_values, returns, clip_eps=0.2):
    ov, r = old_values.detach(), returns.detach()
    vc = ov + torch.clamp(values - ov, -clip_eps, clip_eps)
    return torch.max((values - r) ** 2, (vc - r) ** 2).mean()
