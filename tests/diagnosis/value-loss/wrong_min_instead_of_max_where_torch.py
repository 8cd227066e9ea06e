# expect: value-min-instead-of-max
# framework: torch
# style: torch.where choosing the smaller error ("the clip should help")
import torch


def ppo_value_loss(values, old_values, returns, clip_eps=0.2):
    old = old_values.detach()
    R = returns.detach()
    v_clip = old + (values - old).clamp(-clip_eps, clip_eps)
    e1 = (values - R) ** 2
    e2 = (v_clip - R) ** 2
    return 0.5 * torch.where(e2 < e1, e2, e1).mean()
