# expect: value-clip-absolute
# framework: torch
# style: the prediction itself clamped to [-eps, eps]
import torch


def ppo_value_loss(values, old_values, returns, clip_eps=0.2):
    ret = returns.detach()
    v_clipped = torch.clamp(values, -clip_eps, clip_eps)
    return 0.5 * torch.max((values - ret) ** 2, (v_clipped - ret) ** 2).mean()
