# expect: value-clip-around-returns
# framework: torch
# style: the band centred on the targets
import torch


def ppo_value_loss(values, old_values, returns, clip_eps=0.2):
    R = returns.detach()
    v_clip = R + torch.clamp(values - R, -clip_eps, clip_eps)
    return 0.5 * torch.max((values - R) ** 2, (v_clip - R) ** 2).mean()
