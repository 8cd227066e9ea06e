# expect: value-missing-half
# expect-unnamed: only the clipped prediction's error is used (SB3 clip_range_vf), without the max
# framework: torch
# style: Stable-Baselines3 clip_range_vf: F.mse_loss(returns, values_pred) on the clipped prediction
import torch
import torch.nn.functional as F


def ppo_value_loss(values, old_values, returns, clip_eps=0.2):
    old = old_values.detach()
    values_pred = old + torch.clamp(values - old, -clip_eps, clip_eps)
    return F.mse_loss(returns.detach(), values_pred)
