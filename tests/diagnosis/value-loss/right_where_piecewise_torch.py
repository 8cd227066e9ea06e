# expect: right
# framework: torch
# style: clipped prediction written with nested torch.where
import torch


def ppo_value_loss(values, old_values, returns, clip_eps=0.2):
    old = old_values.detach()
    target = returns.detach()
    delta = values - old
    v_clip = torch.where(delta > clip_eps, old + clip_eps, torch.where(delta < -clip_eps, old - clip_eps, values))
    err = torch.maximum((values - target).pow(2), (v_clip - target).pow(2))
    return err.mean() * 0.5
