# expect: right
# framework: torch
# style: TRL: torch.clamp(vpred, mb_values - c, mb_values + c) with tensor bounds, vf_loss_max
import torch


def ppo_value_loss(values, old_values, returns, clip_eps=0.2):
    vpred = values
    mb_values = old_values.detach()
    mb_return = returns.detach()
    vpredclipped = torch.clamp(vpred, mb_values - clip_eps, mb_values + clip_eps)
    vf_losses1 = torch.square(vpred - mb_return)
    vf_losses2 = torch.square(vpredclipped - mb_return)
    vf_loss_max = torch.max(vf_losses1, vf_losses2)
    vf_loss = 0.5 * vf_loss_max.mean()
    return vf_loss
