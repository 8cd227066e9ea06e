import torch


def ppo_value_loss(values, old_values, returns, clip_eps=0.2):
    # verl / TRL style: clip with max(min(x, hi), lo) instead of clamp
    old = old_values.detach()
    ret = returns.detach()
    clipped = torch.max(torch.min(values, old + clip_eps), old - clip_eps)
    return 0.5 * torch.max((values - ret) ** 2, (clipped - ret) ** 2).mean()
