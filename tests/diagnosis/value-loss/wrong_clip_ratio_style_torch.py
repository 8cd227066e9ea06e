# expect: value-clip-ratio-style
# framework: torch
# style: V / V_old clipped to [1 - eps, 1 + eps], then scaled back
import torch


def ppo_value_loss(values, old_values, returns, clip_eps=0.2):
    old = old_values.detach()
    R = returns.detach()
    ratio = values / old
    v_clip = old * torch.clamp(ratio, 1 - clip_eps, 1 + clip_eps)
    return 0.5 * torch.max((values - R) ** 2, (v_clip - R) ** 2).mean()
