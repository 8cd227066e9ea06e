# expect: right
# framework: torch
# style: torch.where picks the larger squared error, SB3-like names
import torch as th


def ppo_value_loss(values, old_values, returns, clip_eps=0.2):
    rollout_values = old_values.detach()
    R = returns.detach()
    values_pred = rollout_values + th.clamp(values - rollout_values, -clip_eps, clip_eps)
    err_unclipped = (R - values) ** 2
    err_clipped = (R - values_pred) ** 2
    worst = th.where(err_clipped > err_unclipped, err_clipped, err_unclipped)
    return 0.5 * worst.mean()
