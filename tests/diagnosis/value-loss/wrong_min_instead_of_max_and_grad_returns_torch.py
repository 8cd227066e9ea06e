# expect: value-min-instead-of-max grad-into-returns
# framework: torch
# style: the example: min instead of max, and returns not detached
import torch


def ppo_value_loss(values, old_values, returns, clip_eps=0.2):
    old = old_values.detach()
    v_clip = old + torch.clamp(values - old, -clip_eps, clip_eps)
    return 0.5 * torch.min((values - returns) ** 2, (v_clip - returns) ** 2).mean()
