# expect: right
# framework: torch
# style: CleanRL clip_vloss branch
import torch


def ppo_value_loss(values, old_values, returns, clip_eps=0.2):
    newvalue = values
    b_values = old_values.detach()
    b_returns = returns.detach()
    v_loss_unclipped = (newvalue - b_returns) ** 2
    v_clipped = b_values + torch.clamp(newvalue - b_values, -clip_eps, clip_eps)
    v_loss_clipped = (v_clipped - b_returns) ** 2
    v_loss_max = torch.max(v_loss_unclipped, v_loss_clipped)
    v_loss = 0.5 * v_loss_max.mean()
    return v_loss
