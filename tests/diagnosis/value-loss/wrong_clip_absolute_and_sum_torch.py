# expect: value-clip-absolute
# expect-unnamed: summed instead of averaged
# framework: torch
# style: absolute clip and a sum over every element
import torch


def ppo_value_loss(values, old_values, returns, clip_eps=0.2):
    ret = returns.detach()
    v_clip = values.clamp(-clip_eps, clip_eps)
    return 0.5 * torch.max((values - ret) ** 2, (v_clip - ret) ** 2).sum()
