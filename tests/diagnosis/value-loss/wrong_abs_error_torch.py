# expect: value-abs-error
# framework: torch
# style: L1 errors in the clipped value loss
import torch


def ppo_value_loss(values, old_values, returns, clip_eps=0.2):
    old = old_values.detach()
    ret = returns.detach()
    v_clip = old + torch.clamp(values - old, -clip_eps, clip_eps)
    return 0.5 * torch.max((values - ret).abs(), (v_clip - ret).abs()).mean()
