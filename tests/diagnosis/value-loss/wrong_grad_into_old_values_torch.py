# expect: grad-into-old-values
# framework: torch
# style: CleanRL clip_vloss without detaching the stored values
import torch


def ppo_value_loss(values, old_values, returns, clip_eps=0.2):
    returns = returns.detach()
    v_loss_unclipped = (values - returns) ** 2
    v_clipped = old_values + torch.clamp(values - old_values, -clip_eps, clip_eps)
    v_loss_clipped = (v_clipped - returns) ** 2
    return 0.5 * torch.max(v_loss_unclipped, v_loss_clipped).mean()
