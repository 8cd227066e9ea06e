import torch


def ppo_value_loss(values, old_values, returns, clip_eps=0.2):
    old, ret = old_values.detach(), returns.detach()
    clipped = torch.max(torch.min(values, old + clip_eps), old - clip_eps)
    vf1 = (values - ret) ** 2
    vf2 = (clipped - ret) ** 2
    return 0.5 * torch.max(vf1, vf2).mean()
