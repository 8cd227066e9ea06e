# expect: right
# framework: torch
# style: explicit per-element squared errors written into a preallocated buffer, then reduced
import torch


def ppo_value_loss(values, old_values, returns, clip_eps=0.2):
    old = old_values.detach()
    ret = returns.detach()
    v_clipped = old + (values - old).clamp(min=-clip_eps, max=clip_eps)
    pair = torch.stack([(values - ret) ** 2, (v_clipped - ret) ** 2], dim=0)
    worst = pair.max(dim=0).values
    return worst.sum() / worst.numel() / 2
