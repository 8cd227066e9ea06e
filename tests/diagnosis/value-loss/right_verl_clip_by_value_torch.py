# expect: right
# framework: torch
# style: verl compute_value_loss: clip_by_value = torch.max(torch.min(x, hi), lo), 0.5 * masked_mean
import torch


def clip_by_value(x, tensor_min, tensor_max):
    return torch.max(torch.min(x, tensor_max), tensor_min)


def masked_mean(values, mask):
    return (values * mask).sum() / (mask.sum() + 1e-8)


def ppo_value_loss(values, old_values, returns, clip_eps=0.2):
    vpreds = values
    old = old_values.detach()
    returns = returns.detach()
    vpredclipped = clip_by_value(vpreds, old - clip_eps, old + clip_eps)
    vf_losses1 = (vpreds - returns) ** 2
    vf_losses2 = (vpredclipped - returns) ** 2
    clipped_vf_losses = torch.max(vf_losses1, vf_losses2)
    return 0.5 * masked_mean(clipped_vf_losses, torch.ones_like(clipped_vf_losses))
