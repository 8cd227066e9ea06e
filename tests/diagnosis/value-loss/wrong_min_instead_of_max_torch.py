# expect: value-min-instead-of-max
# framework: torch
# style: CleanRL clip_vloss with torch.min
import torch


def ppo_value_loss(values, old_values, returns, clip_eps=0.2):
    b_values = old_values.detach()
    b_returns = returns.detach()
    v_loss_unclipped = (values - b_returns) ** 2
    v_clipped = b_values + torch.clamp(values - b_values, -clip_eps, clip_eps)
    v_loss_clipped = (v_clipped - b_returns) ** 2
    return 0.5 * torch.min(v_loss_unclipped, v_loss_clipped).mean()
