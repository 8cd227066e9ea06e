# expect: grad-into-old-values
# framework: torch
# style: no detach on the rollout values
import torch


def ppo_value_loss(values, old_values, returns, clip_eps=0.2):
    v_clipped = old_values + (values - old_values).clamp(-clip_eps, clip_eps)
    returns = returns.detach()
    l1 = (values - returns).pow(2)
    l2 = (v_clipped - returns).pow(2)
    return 0.5 * torch.max(l1, l2).mean()
