# expect: grad-into-old-values value-min-instead-of-max
# framework: torch
# style: min of the two errors, stored values not detached
import torch


def ppo_value_loss(values, old_values, returns, clip_eps=0.2):
    R = returns.detach()
    v_clip = old_values + (values - old_values).clamp(-clip_eps, clip_eps)
    return 0.5 * torch.min((values - R) ** 2, (v_clip - R) ** 2).mean()
